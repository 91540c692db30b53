package mail_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/mail"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

type flaky struct {
	fail int
	sent []mail.Message
}

func (f *flaky) Send(ctx context.Context, from string, m mail.Message) error {
	if f.fail > 0 {
		f.fail--
		return errors.New("connection refused")
	}
	f.sent = append(f.sent, m)
	return nil
}

func TestOutboxDelivery(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		err := db.InTx(ctx, func(tx *sqlx.Tx) error {
			return mail.Enqueue(ctx, tx, mail.Message{To: "lee@kowloon.example", Subject: "钱包已充值", Body: "hello"}, now)
		})
		if err != nil {
			t.Fatal(err)
		}
		// A message of a rolled-back transaction is never sent.
		_ = db.InTx(ctx, func(tx *sqlx.Tx) error {
			if err := mail.Enqueue(ctx, tx, mail.Message{To: "ghost@example.com", Subject: "x", Body: "x"}, now); err != nil {
				return err
			}
			return errors.New("rolled back")
		})
		if err := db.InTx(ctx, func(tx *sqlx.Tx) error {
			return mail.Enqueue(ctx, tx, mail.Message{To: "not an address", Subject: "x"}, now)
		}); err == nil {
			t.Error("a bad recipient was accepted")
		}

		s := &flaky{fail: 1}
		if n, err := mail.Deliver(ctx, db, s, "Voyage <no-reply@voyage.example>", 10); err != nil || n != 0 {
			t.Fatalf("first attempt: %d %v", n, err)
		}
		if n, err := mail.Deliver(ctx, db, s, "Voyage <no-reply@voyage.example>", 10); err != nil || n != 1 {
			t.Fatalf("retry: %d %v", n, err)
		}
		if len(s.sent) != 1 || s.sent[0].To != "lee@kowloon.example" {
			t.Fatalf("sent = %+v", s.sent)
		}
		if n, _ := mail.Deliver(ctx, db, s, "x@example.com", 10); n != 0 {
			t.Errorf("a sent message went out again")
		}
		var attempts int
		_ = db.Get(&attempts, `SELECT attempts FROM emails WHERE status = 'sent'`)
		if attempts != 2 {
			t.Errorf("attempts = %d", attempts)
		}

		// After MaxAttempts failures a message is marked failed.
		_ = db.InTx(ctx, func(tx *sqlx.Tx) error {
			return mail.Enqueue(ctx, tx, mail.Message{To: "down@example.com", Subject: "x", Body: "x"}, now)
		})
		always := &flaky{fail: 1000}
		for i := 0; i < mail.MaxAttempts+2; i++ {
			_, _ = mail.Deliver(ctx, db, always, "x@example.com", 10)
		}
		var status, lastErr string
		_ = db.QueryRow(`SELECT status, last_error FROM emails WHERE to_addr = 'down@example.com'`).Scan(&status, &lastErr)
		if status != "failed" || !strings.Contains(lastErr, "refused") || always.fail != 1000-mail.MaxAttempts {
			t.Errorf("status %q, error %q, tries %d", status, lastErr, 1000-always.fail)
		}
	})
}

// overlapping is a sender during whose first send another delivery runs,
// as a rescued delivery job beside a live one does.
type overlapping struct {
	db     *store.DB
	inside bool
	sent   []string
	errs   []error
}

func (o *overlapping) Send(ctx context.Context, from string, m mail.Message) error {
	if !o.inside {
		o.inside = true
		if _, err := mail.Deliver(ctx, o.db, o, from, 10); err != nil {
			o.errs = append(o.errs, err)
		}
	}
	o.sent = append(o.sent, m.To)
	return nil
}

// TestDeliveriesAtOnceSendOnce: a delivery running while another sends
// leaves the message being sent alone; each message goes out once.
func TestDeliveriesAtOnceSendOnce(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, to := range []string{"a@example.com", "b@example.com"} {
			if err := db.InTx(ctx, func(tx *sqlx.Tx) error {
				return mail.Enqueue(ctx, tx, mail.Message{To: to, Subject: "x", Body: "x"}, time.Now().UTC())
			}); err != nil {
				t.Fatal(err)
			}
		}
		o := &overlapping{db: db}
		if _, err := mail.Deliver(ctx, db, o, "x@example.com", 10); err != nil {
			t.Fatal(err)
		}
		if len(o.errs) > 0 {
			t.Fatal(o.errs)
		}
		slices.Sort(o.sent)
		if !slices.Equal(o.sent, []string{"a@example.com", "b@example.com"}) {
			t.Errorf("sent %v, want each message once", o.sent)
		}
		var unsent int
		if err := db.GetContext(ctx, &unsent, `SELECT COUNT(*) FROM emails WHERE status <> 'sent'`); err != nil || unsent != 0 {
			t.Errorf("%d messages not marked sent (%v)", unsent, err)
		}
	})
}

func TestOutboxFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	o := mail.Outbox{Dir: filepath.Join(dir, "outbox")}
	if err := o.Send(context.Background(), "Voyage <no-reply@voyage.example>", mail.Message{To: "lee@kowloon.example", Subject: "钱包已充值", Body: "line 1\nline 2"}); err != nil {
		t.Fatal(err)
	}
	files, _ := os.ReadDir(o.Dir)
	if len(files) != 1 || !strings.HasSuffix(files[0].Name(), ".eml") {
		t.Fatalf("outbox = %v", files)
	}
	b, _ := os.ReadFile(filepath.Join(o.Dir, files[0].Name()))
	msg := string(b)
	for _, want := range []string{"To: lee@kowloon.example\r\n", "Subject: =?utf-8?q?", "charset=utf-8", "line 1\r\nline 2"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
}
