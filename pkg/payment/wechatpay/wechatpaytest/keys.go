package wechatpaytest

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"fmt"

	"github.com/voyage/voyage/pkg/payment/rsakey/rsakeytest"

	"github.com/voyage/voyage/pkg/payment/rsakey"
)

// Keys are a merchant's and WeChat Pay's RSA 2048 key pairs.
type Keys struct {
	Merchant *rsa.PrivateKey
	Platform *rsa.PrivateKey
}

// TestKeys are key pairs made once per process: RSA 2048 generation takes
// long enough that every test making its own would slow the suite.
func TestKeys() Keys { return Keys{Merchant: rsakeytest.Key(0), Platform: rsakeytest.Key(1)} }

// PrivateKeyPEM is key as a PKCS#8 PEM block, the form of apiclient_key.pem.
func PrivateKeyPEM(key *rsa.PrivateKey) string { return rsakey.PrivatePEM(key) }

// PublicKeyPEM is key as a PUBLIC KEY PEM block, the form of the WeChat Pay
// public key file (pub_key.pem).
func PublicKeyPEM(key *rsa.PublicKey) string { return rsakey.PublicPEM(key) }

// signLines is SHA256withRSA, base64, over the lines each ended by "\n".
// The fake keeps its own copy of the signing rule so that a mistake in the
// client's is not mirrored here and hidden.
func signLines(key *rsa.PrivateKey, lines ...string) string {
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, h.Sum(nil))
	if err != nil {
		panic(fmt.Sprintf("wechatpaytest: sign: %v", err))
	}
	return base64.StdEncoding.EncodeToString(sig)
}

func verifyLines(key *rsa.PublicKey, sig string, lines ...string) bool {
	raw, err := base64.StdEncoding.DecodeString(sig)
	if err != nil {
		return false
	}
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return rsa.VerifyPKCS1v15(key, crypto.SHA256, h.Sum(nil), raw) == nil
}
