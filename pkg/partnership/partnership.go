// Package partnership stores the home page's partnership applications: a
// prospective agency's contact details for an account manager to follow up.
package partnership

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/input"
	"github.com/voyage/voyage/pkg/store"
)

// Application is a partnership application sent from the home page's form:
// a prospective agency's contact details for an account manager to follow
// up. Its fields have API.md's names.
type Application struct {
	Name  string `json:"name" jsonschema_description:"Title/Name (required)"`
	Email string `json:"email" jsonschema_description:"email or phone is required"`
	// Phone is the applicant's phone number: digits with an optional
	// leading + and spaces, brackets or hyphens (5 to 20 digits); email or
	// phone is required.
	Phone   string `json:"phone"`
	Country string `json:"country" jsonschema_description:"ISO 3166-1 alpha-2 code (required)"`
	// CompanyName is the applicant's company (optional, at most 200
	// characters).
	CompanyName string `json:"companyName"`
	// CompanyAddress is the company's postal address (optional, at most 300
	// characters).
	CompanyAddress string `json:"companyAddress"`
	// Website is the company's web site (optional): an http or https
	// address; without a scheme, https is assumed.
	Website string `json:"website"`
	Remark  string `json:"remark" jsonschema_description:"other notes"`
}

// Submitted is the answer to a stored partnership application.
type Submitted struct {
	// ID is the stored application's number.
	ID int64 `json:"id"`
	// CreatedAt is when the application was received (RFC 3339, UTC).
	CreatedAt time.Time `json:"createdAt"`
}

// Meta is what the server knows about the submitter.
type Meta struct {
	Lang      string
	IP        string
	UserAgent string
}

// Field length limits: generous for real names and addresses, small enough
// that the form cannot be used to store arbitrary data.
var maxLen = map[string]int{
	"name": 100, "email": 254, "phone": 32, "country": 2, "companyName": 200,
	"companyAddress": 300, "website": 300, "remark": 2000,
}

var phonePattern = regexp.MustCompile(`^\+?[0-9][0-9 ()\-]{4,31}$`)

// Normalize trims every field and upper-cases the country code.
func (a Application) Normalize() Application {
	a.Name = strings.TrimSpace(a.Name)
	a.Email = strings.TrimSpace(a.Email)
	a.Phone = strings.TrimSpace(a.Phone)
	a.Country = strings.ToUpper(strings.TrimSpace(a.Country))
	a.CompanyName = strings.TrimSpace(a.CompanyName)
	a.CompanyAddress = strings.TrimSpace(a.CompanyAddress)
	a.Website = strings.TrimSpace(a.Website)
	a.Remark = strings.TrimSpace(a.Remark)
	return a
}

// Validate applies the spec's §5 rules to a normalized application and
// returns field → catalog key for every problem.
func Validate(a Application) map[string]string {
	errs := map[string]string{}
	values := map[string]string{
		"name": a.Name, "email": a.Email, "phone": a.Phone, "country": a.Country, "companyName": a.CompanyName,
		"companyAddress": a.CompanyAddress, "website": a.Website, "remark": a.Remark,
	}
	if a.Name == "" {
		errs["name"] = "application.error.name"
	}
	if a.Country == "" {
		errs["country"] = "application.error.country"
	} else if _, ok := geo.Lookup(a.Country); !ok {
		errs["country"] = "application.error.country"
	}
	if a.Email == "" && a.Phone == "" {
		errs["email"] = "application.error.contact"
		errs["phone"] = "application.error.contact"
	}
	if a.Email != "" && !auth.ValidEmail(a.Email) {
		errs["email"] = "application.error.email"
	}
	if a.Phone != "" && !validPhone(a.Phone) {
		errs["phone"] = "application.error.phone"
	}
	if a.Website != "" && !validWebsite(a.Website) {
		errs["website"] = "application.error.website"
	}
	for field, v := range values {
		if !input.Allowed(v) {
			// The edges refuse these already; the anonymous form is the
			// one place where a caller that skips them must still fail.
			errs[field] = input.FieldKey
		} else if _, bad := errs[field]; !bad && utf8.RuneCountInString(v) > maxLen[field] {
			errs[field] = "error.field.tooLong"
		}
	}
	return errs
}

func validPhone(s string) bool {
	if !phonePattern.MatchString(s) {
		return false
	}
	digits := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	return digits >= 5 && digits <= 20
}

func validWebsite(s string) bool {
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.Contains(u.Host, ".") && !strings.ContainsAny(u.Host, " @")
}

// Service validates and stores applications.
type Service struct {
	db  *store.DB
	now func() time.Time
	// PerIPPerHour caps submissions from one address, so the public form
	// cannot be used to flood the sales queue.
	PerIPPerHour int
}

// New returns the service.
func New(db *store.DB) *Service {
	return &Service{db: db, now: time.Now, PerIPPerHour: 5}
}

// Submit validates a and stores it. Invalid input stores nothing.
func (s *Service) Submit(ctx context.Context, a Application, m Meta) (Submitted, error) {
	a = a.Normalize()
	if errs := Validate(a); len(errs) > 0 {
		return Submitted{}, fault.Validation(errs)
	}
	now := s.now().UTC()
	if m.IP != "" && s.PerIPPerHour > 0 {
		var n int
		if err := s.db.GetContext(ctx, &n, s.db.Rebind(`SELECT COUNT(*) FROM applications WHERE ip = ? AND created_at > ?`), m.IP, now.Add(-time.Hour)); err != nil {
			return Submitted{}, fmt.Errorf("partnership: count recent: %w", err)
		}
		if n >= s.PerIPPerHour {
			return Submitted{}, fault.New(fault.CodeRateLimited, http.StatusTooManyRequests, "application.error.later")
		}
	}
	var id int64
	err := s.db.GetContext(ctx, &id, s.db.Rebind(`
		INSERT INTO applications (name, email, phone, country, company_name, company_address, website, remark, lang, ip, user_agent, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		a.Name, a.Email, a.Phone, a.Country, a.CompanyName, a.CompanyAddress, a.Website, a.Remark, m.Lang, m.IP, input.Clip(m.UserAgent, 300), now)
	if err != nil {
		return Submitted{}, fmt.Errorf("partnership: store application: %w", err)
	}
	return Submitted{ID: id, CreatedAt: now}, nil
}

// Stored is an application as kept in the database.
type Stored struct {
	ID        int64     `db:"id"`
	Name      string    `db:"name"`
	Email     string    `db:"email"`
	Phone     string    `db:"phone"`
	Country   string    `db:"country"`
	Company   string    `db:"company_name"`
	Lang      string    `db:"lang"`
	Status    string    `db:"status"`
	CreatedAt time.Time `db:"created_at"`
}

// Recent lists the newest applications, newest first.
func (s *Service) Recent(ctx context.Context, limit int) ([]Stored, error) {
	var out []Stored
	err := s.db.SelectContext(ctx, &out, s.db.Rebind(`SELECT id, name, email, phone, country, company_name, lang, status, created_at FROM applications ORDER BY id DESC LIMIT ?`), limit)
	if err != nil {
		return nil, fmt.Errorf("partnership: list applications: %w", err)
	}
	return out, nil
}
