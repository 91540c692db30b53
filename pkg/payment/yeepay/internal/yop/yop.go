// Package yop holds the primitives of Yeepay's open platform protocol (YOP)
// that both sides of it need: the yop-auth-v3 request signature, the
// x-yop-sign answer signature and the RSA digital envelope of result
// notifications. The client (package yeepay) and the fake (yeepaytest) use
// the same primitives; the tests pin them to the test vectors Yeepay
// publishes, so the two sides cannot agree on a private dialect.
//
// Sources (Yeepay-Open-Platform/yeepay-skills, the platform's own protocol
// notes for integrators without an SDK):
//   - references/平台文档/平台规范/安全认证/请求签名协议.md ("请求签名协议（出站 API）")
//   - references/平台文档/平台规范/安全认证/结果通知(RSA).md, mirror of
//     https://open.yeepay.com/docs-v3/platform/207.md ("国际密钥(RSA)结果通知")
//   - references/平台文档/平台规范/安全认证/回调解密协议.md
package yop

import (
	"bytes"
	"crypto"
	"crypto/aes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/payment/rsakey"
)

// Protocol constants of yop-auth-v3.
const (
	Scheme        = "YOP-RSA2048-SHA256"
	Version       = "yop-auth-v3"
	ExpireSeconds = 1800
	TimeFormat    = "2006-01-02T15:04:05Z"

	HeaderAppKey        = "x-yop-appkey"
	HeaderContentSHA256 = "x-yop-content-sha256"
	HeaderRequestID     = "x-yop-request-id"
	HeaderSign          = "x-yop-sign"

	// SignedHeaders is the sorted list the Authorization header names.
	SignedHeaders = HeaderAppKey + ";" + HeaderContentSHA256 + ";" + HeaderRequestID
)

// EncodeForSign is the one-pass encoding every canonical string uses:
// RFC 3986, a space as %20 (never "+").
func EncodeForSign(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

// CanonicalParams is "k=v&…" of the parameters, each side encoded once for
// signing, sorted: the canonical query of a GET and, for a form POST, the
// text whose SHA-256 is x-yop-content-sha256.
func CanonicalParams(params url.Values) string {
	pairs := make([]string, 0, len(params))
	for k, vs := range params {
		for _, v := range vs {
			pairs = append(pairs, EncodeForSign(k)+"="+EncodeForSign(v))
		}
	}
	sort.Strings(pairs)
	return strings.Join(pairs, "&")
}

// ContentSHA256 is x-yop-content-sha256 of a GET (the empty string) or a
// form POST (its canonical parameters).
func ContentSHA256(method string, params url.Values) string {
	text := ""
	if method != "GET" {
		text = CanonicalParams(params)
	}
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// HTTPEncode is how a parameter travels on the wire: Yeepay's SDKs encode
// each value twice (a form or query value is the URL encoding of its URL
// encoding), so the gateway decodes twice.
func HTTPEncode(params url.Values) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		for _, v := range params[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			b.WriteString(url.QueryEscape(k) + "=" + url.QueryEscape(url.QueryEscape(v)))
		}
	}
	return b.String()
}

// HTTPDecode undoes the second encoding of HTTPEncode on values already
// decoded once by net/url.
func HTTPDecode(once url.Values) (url.Values, error) {
	out := make(url.Values, len(once))
	for k, vs := range once {
		for _, v := range vs {
			d, err := url.QueryUnescape(v)
			if err != nil {
				return nil, fmt.Errorf("yop: parameter %s: %w", k, err)
			}
			out[k] = append(out[k], d)
		}
	}
	return out, nil
}

// AuthString is "yop-auth-v3/{appKey}/{timestamp}/1800".
func AuthString(appKey string, at time.Time) string {
	return Version + "/" + appKey + "/" + at.UTC().Format(TimeFormat) + "/" + strconv.Itoa(ExpireSeconds)
}

// CanonicalRequest is the text signed for one request: the auth string,
// the method, the API path, the canonical query (empty for a POST) and the
// three signed headers, one per line.
func CanonicalRequest(authString, method, path string, params url.Values, appKey, contentSHA256, requestID string) string {
	query := ""
	if method == "GET" {
		query = CanonicalParams(params)
	}
	headers := HeaderAppKey + ":" + EncodeForSign(appKey) + "\n" +
		HeaderContentSHA256 + ":" + EncodeForSign(contentSHA256) + "\n" +
		HeaderRequestID + ":" + EncodeForSign(requestID)
	return authString + "\n" + method + "\n" + path + "\n" + query + "\n" + headers
}

// Authorization is the header value carrying signature over canonical.
func Authorization(authString, signature string) string {
	return Scheme + " " + authString + "/" + SignedHeaders + "/" + signature
}

// Auth is a parsed Authorization header.
type Auth struct {
	AppKey        string
	Timestamp     time.Time
	Expire        time.Duration
	SignedHeaders string
	Signature     string
}

// AuthString rebuilds the auth string the signature covers.
func (a Auth) AuthString() string {
	return Version + "/" + a.AppKey + "/" + a.Timestamp.UTC().Format(TimeFormat) + "/" + strconv.Itoa(int(a.Expire/time.Second))
}

// ParseAuthorization reads an Authorization header of the yop-auth-v3 form.
func ParseAuthorization(h string) (Auth, error) {
	rest, ok := strings.CutPrefix(h, Scheme+" ")
	if !ok {
		return Auth{}, errors.New("yop: authorization scheme is not " + Scheme)
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 6 || parts[0] != Version {
		return Auth{}, errors.New("yop: authorization is not " + Version + "/appKey/timestamp/expire/headers/signature")
	}
	at, err := time.Parse(TimeFormat, parts[2])
	if err != nil {
		return Auth{}, fmt.Errorf("yop: authorization timestamp: %w", err)
	}
	exp, err := strconv.Atoi(parts[3])
	if err != nil || exp <= 0 {
		return Auth{}, errors.New("yop: authorization expiry is not a positive number")
	}
	return Auth{AppKey: parts[1], Timestamp: at, Expire: time.Duration(exp) * time.Second, SignedHeaders: parts[4], Signature: parts[5]}, nil
}

// Sign is SHA256withRSA (PKCS #1 v1.5) of text, URL-safe base64 without
// padding, and "$SHA256".
func Sign(key *rsa.PrivateKey, text string) (string, error) {
	sum := sha256.Sum256([]byte(text))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
	if err != nil {
		return "", fmt.Errorf("yop: sign: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(sig) + "$SHA256", nil
}

// Verify checks a signature made by Sign (or its standard-base64 form,
// which the platform notes say some answers carry).
func Verify(key *rsa.PublicKey, text, signature string) error {
	b64, alg, found := strings.Cut(signature, "$")
	if found && alg != "SHA256" {
		return fmt.Errorf("yop: signature digest %q is not SHA256", alg)
	}
	sig, err := DecodeBase64(b64)
	if err != nil {
		return fmt.Errorf("yop: signature: %w", err)
	}
	sum := sha256.Sum256([]byte(text))
	if err := rsa.VerifyPKCS1v15(key, crypto.SHA256, sum[:], sig); err != nil {
		return fmt.Errorf("yop: signature does not verify: %w", err)
	}
	return nil
}

// AnswerText is what x-yop-sign covers: the answer body without spaces,
// tabs and newlines.
func AnswerText(body []byte) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' {
			return -1
		}
		return r
	}, string(body))
}

// DecodeBase64 reads base64 in either alphabet, padded or not: the
// platform page says notifications are URL-safe, the integrators' notes
// show standard base64, so a reader takes both.
func DecodeBase64(s string) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	s = strings.NewReplacer("-", "+", "_", "/").Replace(s)
	return base64.RawStdEncoding.DecodeString(s)
}

// Envelope digests and ciphers (the third and fourth parts).
const (
	envelopeCipher = "AES"
	envelopeDigest = "SHA256"
)

// SealEnvelope builds the `response` of a result notification: a random
// AES-128 key encrypted to the merchant's public key (RSA PKCS #1 v1.5),
// "{json}${signature}" encrypted with it (AES/ECB/PKCS5Padding), "AES",
// "SHA256", joined by "$". The signature is the platform's over the JSON.
func SealEnvelope(platform *rsa.PrivateKey, merchant *rsa.PublicKey, plaintext string) (string, error) {
	sig, err := Sign(platform, plaintext)
	if err != nil {
		return "", err
	}
	return SealWithSignature(merchant, plaintext, strings.TrimSuffix(sig, "$SHA256"))
}

// SealWithSignature is SealEnvelope with the signature given: the fake
// uses it to build a notification whose plaintext changed after signing.
func SealWithSignature(merchant *rsa.PublicKey, plaintext, signature string) (string, error) {
	key := make([]byte, 16)
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("yop: envelope key: %w", err)
	}
	encKey, err := rsa.EncryptPKCS1v15(rand.Reader, merchant, key)
	if err != nil {
		return "", fmt.Errorf("yop: envelope key: %w", err)
	}
	data, err := ecbEncrypt(key, []byte(plaintext+"$"+signature))
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString(encKey) + "$" + enc.EncodeToString(data) + "$" + envelopeCipher + "$" + envelopeDigest, nil
}

// OpenEnvelope decrypts a notification's `response` with the merchant's
// private key and verifies the platform's signature over what it holds;
// it answers the notification's JSON.
func OpenEnvelope(merchant *rsa.PrivateKey, platform *rsa.PublicKey, response string) (string, error) {
	parts := strings.Split(response, "$")
	if len(parts) != 4 {
		return "", fmt.Errorf("yop: envelope has %d parts, not 4", len(parts))
	}
	if parts[2] != envelopeCipher || parts[3] != envelopeDigest {
		return "", fmt.Errorf("yop: envelope algorithms %s/%s, not AES/SHA256", parts[2], parts[3])
	}
	encKey, err := DecodeBase64(parts[0])
	if err != nil {
		return "", fmt.Errorf("yop: envelope key: %w", err)
	}
	key, err := rsa.DecryptPKCS1v15(nil, merchant, encKey)
	if err != nil {
		return "", fmt.Errorf("yop: envelope key: %w", err)
	}
	data, err := DecodeBase64(parts[1])
	if err != nil {
		return "", fmt.Errorf("yop: envelope data: %w", err)
	}
	inner, err := ecbDecrypt(key, data)
	if err != nil {
		return "", err
	}
	// The JSON may hold "$"; the signature never does.
	i := strings.LastIndexByte(string(inner), '$')
	if i < 0 {
		return "", errors.New("yop: envelope holds no signature")
	}
	text, sig := string(inner[:i]), strings.TrimSpace(string(inner[i+1:]))
	if err := Verify(platform, text, sig); err != nil {
		return "", err
	}
	return text, nil
}

func ecbEncrypt(key, plain []byte) ([]byte, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("yop: envelope cipher: %w", err)
	}
	n := aes.BlockSize - len(plain)%aes.BlockSize
	padded := append(append([]byte(nil), plain...), bytes.Repeat([]byte{byte(n)}, n)...)
	out := make([]byte, len(padded))
	for i := 0; i < len(padded); i += aes.BlockSize {
		block.Encrypt(out[i:i+aes.BlockSize], padded[i:i+aes.BlockSize])
	}
	return out, nil
}

func ecbDecrypt(key, data []byte) ([]byte, error) {
	if len(key) != 16 {
		return nil, fmt.Errorf("yop: envelope key is %d bytes, not 16", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("yop: envelope cipher: %w", err)
	}
	if len(data) == 0 || len(data)%aes.BlockSize != 0 {
		return nil, errors.New("yop: envelope data is not whole AES blocks")
	}
	out := make([]byte, len(data))
	for i := 0; i < len(data); i += aes.BlockSize {
		block.Decrypt(out[i:i+aes.BlockSize], data[i:i+aes.BlockSize])
	}
	n := int(out[len(out)-1])
	if n == 0 || n > aes.BlockSize {
		return nil, errors.New("yop: envelope padding is wrong")
	}
	for _, b := range out[len(out)-n:] {
		if int(b) != n {
			return nil, errors.New("yop: envelope padding is wrong")
		}
	}
	return out[:len(out)-n], nil
}

// PublicKeyPEM writes a public key as PEM (PKIX), the form Config takes.
func PublicKeyPEM(k *rsa.PublicKey) string { return rsakey.PublicPEM(k) }

// PrivateKeyPEM writes a private key as PEM (PKCS #8).
func PrivateKeyPEM(k *rsa.PrivateKey) string { return rsakey.PrivatePEM(k) }
