package rsakey_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"testing"

	"github.com/voyage/voyage/pkg/payment/rsakey"
)

func TestParse(t *testing.T) {
	t.Parallel()
	k, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	pkcs1 := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}))
	der, _ := x509.MarshalPKCS8PrivateKey(k)
	for name, text := range map[string]string{
		"PKCS #8 PEM": rsakey.PrivatePEM(k), "PKCS #1 PEM": pkcs1, "bare base64": base64.StdEncoding.EncodeToString(der),
	} {
		got, err := rsakey.ParsePrivate(text)
		if err != nil || !got.Equal(k) {
			t.Errorf("ParsePrivate(%s) = %v, %v; want the key", name, got, err)
		}
	}
	pkcs1pub := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&k.PublicKey)}))
	pubDER, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
	for name, text := range map[string]string{
		"PKIX PEM": rsakey.PublicPEM(&k.PublicKey), "PKCS #1 PEM": pkcs1pub, "bare base64": base64.StdEncoding.EncodeToString(pubDER),
	} {
		got, err := rsakey.ParsePublic(text)
		if err != nil || !got.Equal(&k.PublicKey) {
			t.Errorf("ParsePublic(%s) = %v, %v; want the key", name, got, err)
		}
	}
	for _, text := range []string{"", "  \n", "-----BEGIN PRIVATE KEY-----\nnot closed", "not a key!", rsakey.PublicPEM(&k.PublicKey)} {
		if _, err := rsakey.ParsePrivate(text); err == nil {
			t.Errorf("ParsePrivate(%q) took it", text)
		}
	}
}
