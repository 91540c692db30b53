package alipay

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The signing rules of the Alipay open platform, written once for the
// client and for the fake (alipaytest), which must sign as Alipay signs.
//
// Sources: "异步通知验签" (https://global.alipay.com/docs/ac/wap_cn/async:
// drop sign and sign_type, sort the rest, join k=v with &) and the common
// parameters of "当面付-英文版" (open.alitrip.com, articles 104628, 104634,
// 104636: app_id, method, charset, sign_type RSA2, sign, timestamp
// "yyyy-MM-dd HH:mm:ss", version 1.0). A request signs every non-empty
// parameter but sign, sign_type included; values are signed as they are,
// not URL-encoded. RSA2 is SHA256withRSA, PKCS#1 v1.5, base64.

// TimeLayout is how Alipay writes times (timestamp, time_expire,
// gmt_payment, notify_time): Beijing time, no zone.
const TimeLayout = "2006-01-02 15:04:05"

// Beijing is Alipay's clock. China keeps no daylight saving time, so a
// fixed zone is exact and needs no tzdata on the server.
var Beijing = time.FixedZone("CST", 8*60*60)

// SignContent is the text Alipay signs of a parameter set: the non-empty
// parameters not named in exclude, sorted, k=v joined by &.
func SignContent(params url.Values, exclude ...string) string {
	keys := make([]string, 0, len(params))
	for k, vs := range params {
		if len(vs) == 0 || vs[0] == "" || contains(exclude, k) {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(params.Get(k))
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Sign signs content RSA2 (SHA256withRSA) and answers it in base64.
func Sign(key *rsa.PrivateKey, content []byte) (string, error) {
	sum := sha256.Sum256(content)
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
	if err != nil {
		return "", fmt.Errorf("alipay: sign: %w", err)
	}
	return base64.StdEncoding.EncodeToString(sig), nil
}

// ErrSignature: a signature that does not verify.
var ErrSignature = errors.New("alipay: signature does not verify")

// Verify checks an RSA2 signature (base64) of content.
func Verify(key *rsa.PublicKey, content []byte, sign string) error {
	sig, err := base64.StdEncoding.DecodeString(sign)
	if err != nil || len(sig) == 0 {
		return ErrSignature
	}
	sum := sha256.Sum256(content)
	if rsa.VerifyPKCS1v15(key, crypto.SHA256, sum[:], sig) != nil {
		return ErrSignature
	}
	return nil
}

// Yuan writes an amount in fen as Alipay's yuan ("12.34").
func Yuan(fen int64) string {
	return strconv.FormatInt(fen/100, 10) + "." + fmt.Sprintf("%02d", fen%100)
}

// Fen reads Alipay's yuan ("12.34", "12.3", "12") as fen.
func Fen(yuan string) (int64, error) {
	whole, frac, dot := strings.Cut(yuan, ".")
	if whole == "" || len(whole) > 12 || len(frac) > 2 || dot && frac == "" || !digits(whole) || !digits(frac) {
		return 0, fmt.Errorf("alipay: amount %q is not yuan", yuan)
	}
	for len(frac) < 2 {
		frac += "0"
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt(frac, 10, 64)
	return w*100 + f, nil
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
