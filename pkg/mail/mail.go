// Package mail sends the platform's emails through an outbox: Enqueue writes
// the message in the caller's transaction, Deliver (run by a background job)
// sends what is pending with SMTP when configured, or into a folder of .eml
// files in development.
package mail

import (
	"bytes"
	"context"
	"fmt"
	"mime"
	"net"
	"net/mail"
	"net/smtp"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/store"
)

// Languages are the values of an agency's email language setting: English,
// Chinese in Simplified ("zh", the spec's code) and in Traditional.
var Languages = []string{"en", "zh", "zh-tw"}

// Lang is the catalog language an email is written in for the agency
// setting lang: "zh" Simplified, "zh-tw" Traditional, anything else English.
func Lang(lang string) string {
	switch lang {
	case "zh":
		return i18n.ZhCN
	case "zh-tw":
		return i18n.ZhTW
	}
	return i18n.EN
}

// Message is one email.
type Message struct {
	To      string
	Subject string
	Body    string // plain text
}

// Enqueue stores m for delivery in tx.
func Enqueue(ctx context.Context, tx *sqlx.Tx, m Message, now time.Time) error {
	if _, err := mail.ParseAddress(m.To); err != nil {
		return fmt.Errorf("mail: bad recipient %q: %w", m.To, err)
	}
	_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO emails (to_addr, subject, body, created_at) VALUES (?, ?, ?, ?)`), m.To, m.Subject, m.Body, now)
	if err != nil {
		return fmt.Errorf("mail: enqueue: %w", err)
	}
	return nil
}

// Sender delivers one message.
type Sender interface {
	Send(ctx context.Context, from string, m Message) error
}

// SMTP sends through an SMTP server (STARTTLS when the server offers it).
type SMTP struct {
	Host     string
	Port     int
	Username string
	Password string
}

// Send implements Sender.
func (s SMTP) Send(ctx context.Context, from string, m Message) error {
	addr := net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
	var a smtp.Auth
	if s.Username != "" {
		a = smtp.PlainAuth("", s.Username, s.Password, s.Host)
	}
	if err := smtp.SendMail(addr, a, from, []string{m.To}, render(from, m, time.Now())); err != nil {
		return fmt.Errorf("mail: smtp to %s: %w", m.To, err)
	}
	return nil
}

// Outbox writes each message as an .eml file into Dir: development's way of
// reading what would have been sent.
type Outbox struct {
	Dir string
}

// Send implements Sender.
func (o Outbox) Send(ctx context.Context, from string, m Message) error {
	if err := os.MkdirAll(o.Dir, 0o750); err != nil {
		return fmt.Errorf("mail: outbox: %w", err)
	}
	now := time.Now().UTC()
	name := fmt.Sprintf("%s-%d.eml", now.Format("20060102T150405.000000000"), os.Getpid())
	if err := os.WriteFile(filepath.Join(o.Dir, name), render(from, m, now), 0o640); err != nil {
		return fmt.Errorf("mail: outbox: %w", err)
	}
	return nil
}

func render(from string, m Message, at time.Time) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: %s\r\n", from)
	fmt.Fprintf(&b, "To: %s\r\n", m.To)
	fmt.Fprintf(&b, "Subject: %s\r\n", mime.QEncoding.Encode("utf-8", m.Subject))
	fmt.Fprintf(&b, "Date: %s\r\n", at.Format(time.RFC1123Z))
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	b.WriteString(strings.ReplaceAll(m.Body, "\n", "\r\n"))
	b.WriteString("\r\n")
	return b.Bytes()
}

// MaxAttempts is how often a message is tried before it is marked failed.
const MaxAttempts = 5

// sendLease is how long a message claimed for sending stays out of other
// deliveries' reach: longer than a delivery job may run, so only a claim
// whose process died (a crash mid-send) runs out and is tried again.
const sendLease = 5 * time.Minute

// Deliver sends up to limit pending messages and returns how many went out.
//
// Each message is claimed before it is sent (status "sending", sent_at the
// claim's time, the attempt counted), so two deliveries running at once (a
// rescued job beside a live one, two instances) never send the same
// message. Only a crash between the send and its record can send one twice:
// its claim runs out after sendLease and the message is tried again.
func Deliver(ctx context.Context, db *store.DB, s Sender, from string, limit int) (int, error) {
	var pending []struct {
		ID       int64  `db:"id"`
		To       string `db:"to_addr"`
		Subject  string `db:"subject"`
		Body     string `db:"body"`
		Attempts int    `db:"attempts"`
	}
	stale := time.Now().UTC().Add(-sendLease)
	err := db.SelectContext(ctx, &pending, db.Rebind(`SELECT id, to_addr, subject, body, attempts FROM emails
		WHERE status = 'pending' OR (status = 'sending' AND sent_at < ?) ORDER BY id LIMIT ?`), stale, limit)
	if err != nil {
		return 0, fmt.Errorf("mail: pending: %w", err)
	}
	sent := 0
	for _, p := range pending {
		res, err := db.ExecContext(ctx, db.Rebind(`UPDATE emails SET status = 'sending', sent_at = ?, attempts = attempts + 1
			WHERE id = ? AND attempts = ? AND (status = 'pending' OR (status = 'sending' AND sent_at < ?))`),
			time.Now().UTC(), p.ID, p.Attempts, stale)
		if err != nil {
			return sent, fmt.Errorf("mail: claim %d: %w", p.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue // another delivery has it
		}
		serr := s.Send(ctx, from, Message{To: p.To, Subject: p.Subject, Body: p.Body})
		// The outcome is written even when the job's time ran out mid-send.
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		if serr == nil {
			_, err = db.ExecContext(wctx, db.Rebind(`UPDATE emails SET status = 'sent', sent_at = ? WHERE id = ?`), time.Now().UTC(), p.ID)
			sent++
		} else {
			status := "pending"
			if p.Attempts+1 >= MaxAttempts {
				status = "failed"
			}
			_, err = db.ExecContext(wctx, db.Rebind(`UPDATE emails SET status = ?, sent_at = NULL, last_error = ? WHERE id = ?`), status, serr.Error(), p.ID)
		}
		cancel()
		if err != nil {
			return sent, fmt.Errorf("mail: mark %d: %w", p.ID, err)
		}
	}
	return sent, nil
}
