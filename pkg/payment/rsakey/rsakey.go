// Package rsakey reads and writes the RSA keys the payment channels sign and
// verify with, in the forms the providers' consoles and key tools hand out:
// PEM (PKCS #1 or PKCS #8 for a private key, PKIX or PKCS #1 for a public
// one) or the bare base64 of the DER, which Alipay's and Yeepay's consoles
// show without PEM armour.
package rsakey

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// ParsePrivate reads an RSA private key: PEM or bare base64, PKCS #1 or
// PKCS #8.
func ParsePrivate(text string) (*rsa.PrivateKey, error) {
	return parse[*rsa.PrivateKey](text, x509.ParsePKCS1PrivateKey, x509.ParsePKCS8PrivateKey, "neither PKCS #1 nor PKCS #8")
}

// ParsePublic reads an RSA public key: PEM or bare base64, PKIX or PKCS #1.
func ParsePublic(text string) (*rsa.PublicKey, error) {
	return parse[*rsa.PublicKey](text, x509.ParsePKCS1PublicKey, x509.ParsePKIXPublicKey, "neither PKIX nor PKCS #1")
}

// ParsePair reads a channel's two keys: the merchant's private key, which
// signs what Voyage sends, and the provider's public key, which verifies
// what it answers.
func ParsePair(private, public string) (*rsa.PrivateKey, *rsa.PublicKey, error) {
	key, err := ParsePrivate(private)
	if err != nil {
		return nil, nil, fmt.Errorf("private key: %w", err)
	}
	pub, err := ParsePublic(public)
	if err != nil {
		return nil, nil, fmt.Errorf("public key: %w", err)
	}
	return key, pub, nil
}

// parse is the key of text in the RSA-only encoding (PKCS #1) or, failing
// that, in the generic one (PKCS #8, PKIX), which must hold an RSA key K.
func parse[K any](text string, rsaOnly func([]byte) (K, error), generic func([]byte) (any, error), forms string) (K, error) {
	var none K
	der, err := decode(text)
	if err != nil {
		return none, err
	}
	if k, err := rsaOnly(der); err == nil {
		return k, nil
	}
	k, err := generic(der)
	if err != nil {
		return none, fmt.Errorf("%s: %w", forms, err)
	}
	rk, ok := k.(K)
	if !ok {
		return none, fmt.Errorf("%T, not RSA", k)
	}
	return rk, nil
}

// decode is a key's DER: the first PEM block's bytes, or the text read as
// base64 with its white space (line breaks of a pasted key) dropped.
func decode(text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, errors.New("key is empty")
	}
	if block, _ := pem.Decode([]byte(text)); block != nil {
		return block.Bytes, nil
	}
	// Text that starts as PEM but did not decode is a damaged PEM, not
	// base64; saying so is the more useful error.
	if strings.HasPrefix(text, "-----") {
		return nil, errors.New("key is not valid PEM")
	}
	der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(text), ""))
	if err != nil {
		return nil, fmt.Errorf("key is neither PEM nor base64: %w", err)
	}
	return der, nil
}

// PrivatePEM writes a private key as PEM (PKCS #8, "PRIVATE KEY"), the form
// the providers' key tools write.
func PrivatePEM(k *rsa.PrivateKey) string {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		panic(fmt.Sprintf("rsakey: marshal private key: %v", err)) // an RSA key always marshals
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

// PublicPEM writes a public key as PEM (PKIX, "PUBLIC KEY").
func PublicPEM(k *rsa.PublicKey) string {
	der, err := x509.MarshalPKIXPublicKey(k)
	if err != nil {
		panic(fmt.Sprintf("rsakey: marshal public key: %v", err)) // an RSA key always marshals
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}
