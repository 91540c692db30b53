package wechatpay

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/voyage/voyage/pkg/payment"
)

// Notification is a payment notification as posted to notify_url (支付成功回调通知,
// https://pay.weixin.qq.com/docs/merchant/apis/h5-payment/payment-notice.html):
//
//	{"id": "EV-2018022511223320873", "create_time": "2015-05-20T13:29:35+08:00",
//	 "resource_type": "encrypt-resource", "event_type": "TRANSACTION.SUCCESS",
//	 "summary": "支付成功", "resource": {"original_type": "transaction",
//	 "algorithm": "AEAD_AES_256_GCM", "ciphertext": "...",
//	 "associated_data": "", "nonce": "..."}}
type Notification struct {
	ID           string   `json:"id"`
	CreateTime   string   `json:"create_time"`
	ResourceType string   `json:"resource_type"`
	EventType    string   `json:"event_type"`
	Summary      string   `json:"summary"`
	Resource     Resource `json:"resource"`
}

// Resource is a notification's encrypted payload (如何解密证书和回调报文,
// https://pay.weixin.qq.com/docs/merchant/development/interface-rules/certificate-callback-decryption.html).
type Resource struct {
	OriginalType   string `json:"original_type"`
	Algorithm      string `json:"algorithm"`
	Ciphertext     string `json:"ciphertext"` // base64 of ciphertext and 16-byte tag
	AssociatedData string `json:"associated_data"`
	Nonce          string `json:"nonce"` // 12 characters, used as the GCM nonce bytes
}

// Notification vocabulary.
const (
	EventTransactionSuccess = "TRANSACTION.SUCCESS"
	ResourceEncrypted       = "encrypt-resource"
	AlgorithmAESGCM         = "AEAD_AES_256_GCM"
	OriginalTransaction     = "transaction"
)

// ParseNotification verifies a payment notification (its headers' signature
// over the raw body, with the same rules as an answer), decrypts its
// resource with the APIv3 key and answers the transaction. Every failure
// wraps payment.ErrBadNotice.
func (c *Client) ParseNotification(h http.Header, body []byte) (Notification, Transaction, error) {
	var n Notification
	var tx Transaction
	if err := c.verify(h, body); err != nil {
		return n, tx, fmt.Errorf("%w: %w", payment.ErrBadNotice, err)
	}
	if err := json.Unmarshal(body, &n); err != nil {
		return n, tx, fmt.Errorf("%w: %w", payment.ErrBadNotice, err)
	}
	if n.EventType != EventTransactionSuccess || n.ResourceType != ResourceEncrypted ||
		n.Resource.Algorithm != AlgorithmAESGCM || n.Resource.OriginalType != OriginalTransaction {
		return n, tx, fmt.Errorf("%w: event %q, resource %q %q %q", payment.ErrBadNotice,
			n.EventType, n.ResourceType, n.Resource.Algorithm, n.Resource.OriginalType)
	}
	plain, err := c.decrypt(n.Resource)
	if err != nil {
		return n, tx, fmt.Errorf("%w: %w", payment.ErrBadNotice, err)
	}
	if err := json.Unmarshal(plain, &tx); err != nil {
		return n, tx, fmt.Errorf("%w: transaction: %w", payment.ErrBadNotice, err)
	}
	// A transaction of another merchant or app, signed by WeChat Pay, is
	// still not ours to act on.
	if tx.MchID != c.cfg.MchID || tx.AppID != c.cfg.AppID {
		return n, tx, fmt.Errorf("%w: transaction of mchid %q appid %q", payment.ErrBadNotice, tx.MchID, tx.AppID)
	}
	return n, tx, nil
}

func (c *Client) decrypt(r Resource) ([]byte, error) {
	ct, err := base64.StdEncoding.DecodeString(r.Ciphertext)
	if err != nil {
		return nil, fmt.Errorf("ciphertext is not base64: %w", err)
	}
	block, err := aes.NewCipher(c.keys.apiv3)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	if len(r.Nonce) != gcm.NonceSize() {
		return nil, fmt.Errorf("nonce of %d bytes, want %d", len(r.Nonce), gcm.NonceSize())
	}
	plain, err := gcm.Open(nil, []byte(r.Nonce), ct, []byte(r.AssociatedData))
	if err != nil {
		return nil, fmt.Errorf("decrypt resource: %w", err)
	}
	return plain, nil
}
