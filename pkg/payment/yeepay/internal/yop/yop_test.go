package yop

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/payment/rsakey"
)

// The signing vectors of "请求签名协议（出站 API）" (yeepay-skills,
// references/平台文档/平台规范/安全认证/请求签名协议.md and
// scripts/rsa/tests/vectors/sign_vectors.json): app_10086032562,
// 2026-01-01T00:00:00Z, request id 00000000-0000-4000-8000-000000000001.
func TestCanonicalRequestVectors(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const appKey, reqID = "app_10086032562", "00000000-0000-4000-8000-000000000001"
	cases := []struct {
		name, method, path string
		params             url.Values
		sha, canonical     string
		wire               string
	}{
		{
			name:   "GET query with a space",
			method: "GET", path: "/rest/v1.0/trade/order/query",
			params:    url.Values{"merchantNo": {"10086032562"}, "orderId": {"TEST ORDER_20260101_001"}},
			sha:       "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
			canonical: "yop-auth-v3/app_10086032562/2026-01-01T00:00:00Z/1800\nGET\n/rest/v1.0/trade/order/query\nmerchantNo=10086032562&orderId=TEST%20ORDER_20260101_001\nx-yop-appkey:app_10086032562\nx-yop-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\nx-yop-request-id:00000000-0000-4000-8000-000000000001",
			wire:      "merchantNo=10086032562&orderId=TEST%2BORDER_20260101_001",
		},
		{
			name:   "POST form refund with Chinese",
			method: "POST", path: "/rest/v1.0/trade/refund",
			params: url.Values{"merchantNo": {"10086032562"}, "orderId": {"TEST_ORDER_20260101_001"},
				"refundRequestId": {"REFUND_20260101_001"}, "refundAmount": {"0.01"}, "description": {"测试退款"}},
			sha:       "a95bf5b62724cdd27e199e50ee2af246d9268f8752d02f0288ad16fc97fef710",
			canonical: "yop-auth-v3/app_10086032562/2026-01-01T00:00:00Z/1800\nPOST\n/rest/v1.0/trade/refund\n\nx-yop-appkey:app_10086032562\nx-yop-content-sha256:a95bf5b62724cdd27e199e50ee2af246d9268f8752d02f0288ad16fc97fef710\nx-yop-request-id:00000000-0000-4000-8000-000000000001",
			wire:      "description=%25E6%25B5%258B%25E8%25AF%2595%25E9%2580%2580%25E6%25AC%25BE&merchantNo=10086032562&orderId=TEST_ORDER_20260101_001&refundAmount=0.01&refundRequestId=REFUND_20260101_001",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sha := ContentSHA256(c.method, c.params)
			if sha != c.sha {
				t.Errorf("content sha256 = %s, want %s", sha, c.sha)
			}
			got := CanonicalRequest(AuthString(appKey, at), c.method, c.path, c.params, appKey, sha, reqID)
			if got != c.canonical {
				t.Errorf("canonical request =\n%s\nwant\n%s", got, c.canonical)
			}
			if w := HTTPEncode(c.params); w != c.wire {
				t.Errorf("wire = %s, want %s", w, c.wire)
			}
			once, err := url.ParseQuery(c.wire)
			if err != nil {
				t.Fatal(err)
			}
			back, err := HTTPDecode(once)
			if err != nil || CanonicalParams(back) != CanonicalParams(c.params) {
				t.Errorf("decoded wire = %v (%v), want %v", back, err, c.params)
			}
		})
	}
}

// The worked example of "国际密钥(RSA)结果通知"
// (https://open.yeepay.com/docs-v3/platform/207.md, section 方案三：自行实现):
// the merchant private key, the first two parts of `response` and the
// random key and plaintext they must give.
const (
	docMerchantKey = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCFqza8OmK0drABjmphX3erNEoLJ6kCqaE/AWvqEReAq5K8+3btAVEJYBiMbEJUvZpV4YCITDhyJeRzdfLl2EGnsvI4lrhvrvGAjW9lB34b7GdJSMFFj+ExrTuCQ7zDeUgATlmhLyHxWZ6IAVwf1a3G5bk2GhUipFc0dL8HviVk25CSAgCWKL8LZ0V4ec+FF3/Z6orJUChQOuvpNlclH65pHbdQ4Mr3rQUI0z7WSaW1U1EZeXSctRPf/3JQYLi+RW/yogXG8t+6zn9jE/tGuWJV0bm/ZUDU2XydjZgU0E/NzMutmNVSSKpBy74vt5SCNXkK0BgjRTXP8HGvEgA7IYfLAgMBAAECggEAQNlOxcUBrBHE1Ax22eTKFvpYTc8g9NS9EOcsprNCFr+mgh7xlIxF92lyn3XKPHh8DtxHUljALcjqa4W2oQHo4GY1k3Sz6CMUsUxs1bPr37oyZeBxO8FQ/JvRuiIIy0DkyJk6bLOEISZcfhlCy4MMOumqkG/Y/ySB1kYpg6UhWStlGdQZbHEL7NUBW1QVQqaDAtSV8cgNNXbinQ08pIMlfqnH57DM8J7lx+687li41ZkQgCc/r/zkV5Tf5ABlhDxmZZbHmU7jsvlqh6zxm12r7A0gOwnb/wVd0ZrpIE2TfsDGOQckfEmaD4uhsabDAVO7I6IDM86hH3Sm285hkQ/2eQKBgQC6eNRpJQv6TfXMqEoNMf503WGskWF0RFSU0mU/5dSX8GELhLkyAtAhZFnrOKcseZJng/Z6grfS2wIG3Y17kXIlbi8Wprk0F9AsUOSEFPFRW/I7y7aUDvGf8Jz/TsiYEatSE0SJCWZbpaO8+WoczNybWNyyHapq2g6+xHSlyEp9nQKBgQC3gjOIF1dt67lrWSogVDX1eEpp6yLxKXC0usGV/0sB2FK5S9KqEh2Ul+rWwlxXxLpVYHhHFr1k7PyFrnwsTUxNHj2joCD1yOhMoxgMoRm0/z43cV/0TeTcLTQkxdCtwZ6pQwHIAHenLRpxpnD8Y8EplA3VS9Lno7eSC9VjqgFShwKBgF83vfcm1LPuxTnJIW8VfUK9nNeasPHGxo3r1YnIWUNwmo1gK5UO/KpgbM4A8tRyC8FSEDVEtIs2DBXnYgycG3ZjiiX94opoMoO+lsGfVA5gbhP8lPGLo/Qw0GpKF4IXW60ga5myNBNORIsFrRqhvXCR8rf9D/1Z9beR56KT4P29AoGAV986+dHjhbk4wpShvXVVmUOOroVv5/cmBwTeqgrjSfDiO+R47gNassrEIy5StZx4dWWKctAKxQdOLF1PDI+/F7aBYZbN8aPQyNHYNEP4YVlP25Col/2st1nV/D3VHT730KlLcw/2O9E3NnCy7ch+uIAy145FYbJdtst/1QeVNoUCgYEAtv3w9xNugsYl4/yNkC/DIXat9u/56sVjnYzxvwHZT8jtg4uo3qqlRqqm4OcUmzcsYodrsbn8upizq9ZS2NVdPrGIPFOZBgNUKWL1Ok/dJgfBcdpo72/UX4+KQ2/9c1ZrjjMs4sglsrzvZTXqkryXkPKxKk1EcjDaKiOExFnk6Y8="
	docEncKey      = "ZIcrArlonH0mxIWCRejL2VQS2qeK5EFz2gALzdMbusIU8eqwnWNgJRWiTwJElSQEhnT42KkU3jXWZr2dd0A8-bZSjT-hvNCUI0aoJZkadRtJrWoe_ygGhOLegj7cTbk8y7GOzfFQteIFbB9ALae1CqWVHgfgyozbTLgsse4MfuYjio9r3DOkCJJSkW6mEHB0G4rTXSWFni0h_Uhtu5jsuCTU4vWDPKrBIZI17rr1AIqmyOd8C8oLCAplC1JT4KnLq5QCir4cnvZJrGYB5-bI00gPOdGX2_v4Az3VqMkh8PqqPSDriJ-PqDo9T2dnjR5njYkTSSzUpIXg6cfhLaTNIQ"
	docEncData     = "0sn1fsX0zRYXv-bb0tV531Brbhb-fPORrXYqe8JzHbnL8NkAwIPRkSaTXfq3etJnmslkkBlPpZeTc7639TWQlBrl3eVW-aQKIjFX4bhfyythIh5ByjBAHw1RaYwoHw10kkpbBBk01K-6pzE9QzT6TvjZLsSsXZ6O3WJdvrB8dtpJA-PI-sOzm7DXkBqfKOSufkN1C1mRvexBlcN3ScSH2TKo5ZwKw3Fo_93GsYFD0hzYmHpC6yCyHXeY1PPlHYqd_KsqXVo_xBtXMCadoKnldYnMljXdhAQJLRdlkwTgeD8FX18SQSJ18O6Ag0w3IM9QXkcgZVgIo1-_ZUncc5AtNXyQCvfT4tNyaIRFsXlFqj5tCc5bekMz8OzYeRTPfmfCLKXmjvg4ICMw0aIRboX1tyZpCHdHU269u0-wX90pMDNRqBZsLag6glNDSzEG8RQaB4vGrjvxYy0ixeUnogwni2qqnnGX5Gfhkst7FPYubAsi5HweDT_aJIrmE6kMiBrpMAOcIGZ6slYK854FOH3ODO9-raz7n2P__NUTpziTF4t4Jru_erJevVoGyHH81qq_msIMvK7IRx2z1QoExRL08A"
	docRandomKey   = "kLNl5Q7MOV0FRw_dl1VDPg"
	docPlaintext   = `{"date":"20181014000000","aaa":"","boolean":true,"SIZE":-14,"name":"易宝支付","dou":12.134}`
)

func TestEnvelopeDocumentExample(t *testing.T) {
	t.Parallel()
	merchant, err := rsakey.ParsePrivate(docMerchantKey)
	if err != nil {
		t.Fatal(err)
	}
	encKey, err := DecodeBase64(docEncKey)
	if err != nil {
		t.Fatal(err)
	}
	key, err := rsa.DecryptPKCS1v15(nil, merchant, encKey)
	if err != nil {
		t.Fatal(err)
	}
	if got := base64.RawURLEncoding.EncodeToString(key); got != docRandomKey {
		t.Fatalf("random key = %s, want %s", got, docRandomKey)
	}
	data, err := DecodeBase64(docEncData)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := ecbDecrypt(key, data)
	if err != nil {
		t.Fatal(err)
	}
	text, _, _ := strings.Cut(string(inner), "$")
	if text != docPlaintext {
		t.Fatalf("plaintext = %s, want %s", text, docPlaintext)
	}
}

func TestEnvelopeRoundTrip(t *testing.T) {
	t.Parallel()
	platform, _ := rsa.GenerateKey(rand.Reader, 2048)
	merchant, _ := rsa.GenerateKey(rand.Reader, 2048)
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	const body = `{"orderId":"A$1","status":"SUCCESS","orderAmount":"0.01"}`
	sealed, err := SealEnvelope(platform, &merchant.PublicKey, body)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		response string
		platform *rsa.PublicKey
		ok       bool
	}{
		{"sealed", sealed, &platform.PublicKey, true},
		{"standard base64", strings.NewReplacer("-", "+", "_", "/").Replace(sealed), &platform.PublicKey, true},
		{"other platform key", sealed, &other.PublicKey, false},
		{"three parts", strings.TrimSuffix(sealed, "$SHA256"), &platform.PublicKey, false},
		{"data cut", strings.Replace(sealed, "$AES", "AAAA$AES", 1), &platform.PublicKey, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := OpenEnvelope(merchant, c.platform, c.response)
			if c.ok && (err != nil || got != body) {
				t.Fatalf("OpenEnvelope = %q, %v", got, err)
			}
			if !c.ok && err == nil {
				t.Fatalf("OpenEnvelope = %q, want an error", got)
			}
		})
	}
}

func TestAuthorizationRoundTrip(t *testing.T) {
	t.Parallel()
	k, _ := rsa.GenerateKey(rand.Reader, 2048)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	as := AuthString("app_1", at)
	params := url.Values{"orderId": {"A 1"}}
	canon := CanonicalRequest(as, "POST", "/rest/v1.0/trade/order", params, "app_1", ContentSHA256("POST", params), "r1")
	sig, err := Sign(k, canon)
	if err != nil {
		t.Fatal(err)
	}
	a, err := ParseAuthorization(Authorization(as, sig))
	if err != nil {
		t.Fatal(err)
	}
	if a.AuthString() != as || a.SignedHeaders != SignedHeaders || a.AppKey != "app_1" {
		t.Fatalf("parsed %+v", a)
	}
	if err := Verify(&k.PublicKey, canon, a.Signature); err != nil {
		t.Fatal(err)
	}
	if err := Verify(&k.PublicKey, canon+"x", a.Signature); err == nil {
		t.Fatal("a changed text verified")
	}
}
