// Package agency holds the agency network: the provider, its agencies and
// their sub-agencies, with each agency's company profile and settings.
package agency

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
)

// Agency is a row of the agencies table.
type Agency struct {
	ID                  int64     `db:"id" json:"id"`
	ParentID            *int64    `db:"parent_id" json:"parentId,omitempty"`
	ProxyLevel          int       `db:"proxy_level" json:"proxyLevel"`
	Code                string    `db:"code" json:"code"`
	Name                string    `db:"name" json:"name"`
	Alias               string    `db:"alias" json:"alias"`
	Address             string    `db:"address" json:"address"`
	LogoType            string    `db:"logo_type" json:"-"`
	EnableFlightService bool      `db:"enable_flight_service" json:"-"`
	EnableTrainService  bool      `db:"enable_train_service" json:"-"`
	SettlementCurrency  string    `db:"settlement_currency" json:"-"`
	IsShowBill          bool      `db:"is_show_bill" json:"-"`
	CanCreateSubAgency  bool      `db:"can_create_sub_agency" json:"-"`
	SingleSession       bool      `db:"single_session" json:"-"`
	SSOSecret           string    `db:"sso_secret" json:"-"`
	AllowedHostsJSON    string    `db:"allowed_hosts" json:"-"`
	Theme               string    `db:"theme" json:"-"`
	Favicon             string    `db:"favicon" json:"-"`
	HideCSWidget        bool      `db:"hide_cs_widget" json:"-"`
	HideSSOMessage      bool      `db:"hide_sso_message" json:"-"`
	Status              string    `db:"status" json:"status"`
	CreatedAt           time.Time `db:"created_at" json:"createdAt"`
	UpdatedAt           time.Time `db:"updated_at" json:"updatedAt"`
	ContactName         string    `db:"contact_name" json:"-"`
	ContactEmail        string    `db:"contact_email" json:"-"`
	ContactPhone        string    `db:"contact_phone" json:"-"`
	CustomerService     string    `db:"customer_service" json:"-"`
	ExtraInfo           string    `db:"extra_info" json:"-"`
	EmailLanguage       string    `db:"email_language" json:"-"`
	SendEmailToSub      bool      `db:"send_email_to_sub" json:"-"`
	HidePNRBooking      bool      `db:"hide_pnr_booking" json:"-"`
	HideMainland        bool      `db:"hide_mainland" json:"-"`
	DisablePayment      bool      `db:"disable_payment" json:"-"`
	// PaymentChannelsJSON is the external channels the provider lets the
	// agency pay by (a JSON array), NULL for every channel the server has.
	PaymentChannelsJSON sql.NullString `db:"payment_channels" json:"-"`
	OnlyOwnOrders       bool           `db:"only_own_orders" json:"-"`
	InvoiceTypeOnExcel  bool           `db:"invoice_type_on_excel" json:"-"`
	FlightSettingsJSON  string         `db:"flight_settings" json:"-"`
	TrainSettingsJSON   string         `db:"train_settings" json:"-"`
	CreditPeriod        int            `db:"credit_period" json:"-"`
	CreditPeriodUnit    string         `db:"credit_period_unit" json:"-"`
	TimeZone            string         `db:"time_zone" json:"-"`
}

// Config returns the agency's settings, flight and train settings.
func (a Agency) Config() Config {
	return Config{
		Settings: Settings{CanCreateSubAgency: a.CanCreateSubAgency, EmailLanguage: a.EmailLanguage, SettlementCurrency: a.SettlementCurrency,
			IsShowBill: a.IsShowBill, SendEmailToSub: a.SendEmailToSub, HidePNRBooking: a.HidePNRBooking, HideMainland: a.HideMainland,
			DisablePayment: a.DisablePayment, OnlyOwnOrders: a.OnlyOwnOrders, InvoiceTypeOnExcel: a.InvoiceTypeOnExcel,
			EnableFlight: a.EnableFlightService, EnableTrain: a.EnableTrainService, TimeZone: a.TimeZone,
			PaymentChannels: decodeChannels(a.PaymentChannelsJSON)},
		Flight: decodeFlight(a.FlightSettingsJSON),
		Train:  decodeTrain(a.TrainSettingsJSON),
	}
}

// Common is the company's commonConfig (spec §3).
func (a Agency) Common() auth.CommonConfig {
	return auth.CommonConfig{
		EnableTrainService:  a.EnableTrainService,
		EnableFlightService: a.EnableFlightService,
		SettlementCurrency:  a.SettlementCurrency,
		IsShowBill:          a.IsShowBill,
		CanCreateSubAgency:  a.CanCreateSubAgency,
	}
}

// AllowedHosts are the origins that may frame the portal in single-login
// (iframe) mode.
func (a Agency) AllowedHosts() []string {
	var hosts []string
	_ = json.Unmarshal([]byte(a.AllowedHostsJSON), &hosts)
	return hosts
}

// Branding is how the portal looks for the agency's users. It is
// per-agency data rather than a special case in code.
type Branding struct {
	// Theme is the name of the portal's colour theme for the agency's users
	// (lower-case letters, digits and dashes, e.g. sky); absent for the
	// default theme.
	Theme string `json:"theme,omitempty"`
	// Favicon is the URL of the favicon the portal shows the agency's users
	// instead of the site's; absent for the site's own.
	Favicon string `json:"favicon,omitempty"`
	// HideCSWidget is whether the portal hides its customer-service widget
	// from the agency's users.
	HideCSWidget bool `json:"hideCustomerService"`
	// HideSSOMessage is whether the portal shows the agency's users no
	// success message after a single login (POST /base/v2/single-login).
	HideSSOMessage bool `json:"hideSingleLoginMessage"`
}

// Branding returns the agency's branding.
func (a Agency) Branding() Branding {
	return Branding{Theme: a.Theme, Favicon: a.Favicon, HideCSWidget: a.HideCSWidget, HideSSOMessage: a.HideSSOMessage}
}

const columns = `id, parent_id, proxy_level, code, name, alias, address, logo_type, enable_flight_service,
	enable_train_service, settlement_currency, is_show_bill, can_create_sub_agency, single_session, sso_secret,
	allowed_hosts, theme, favicon, hide_cs_widget, hide_sso_message, status, created_at, updated_at, contact_name,
	contact_email, contact_phone, customer_service, extra_info, email_language, send_email_to_sub, hide_pnr_booking,
	hide_mainland, disable_payment, only_own_orders, invoice_type_on_excel, flight_settings, train_settings,
	credit_period, credit_period_unit, time_zone, payment_channels`

// Store reads and writes agencies.
type Store struct {
	db    *store.DB
	now   func() time.Time
	cache rowCache
}

// NewStore returns the agency store.
func NewStore(db *store.DB) *Store { return &Store{db: db, now: time.Now} }

// Get loads one agency; fault.NotFound when there is none.
func (s *Store) Get(ctx context.Context, id int64) (Agency, error) {
	return s.getIn(ctx, s.db, id)
}

// getIn is Get through q: the database or a transaction.
func (s *Store) getIn(ctx context.Context, q sqlx.QueryerContext, id int64) (Agency, error) {
	var a Agency
	err := sqlx.GetContext(ctx, q, &a, s.db.Rebind(`SELECT `+columns+` FROM agencies WHERE id = ?`), id)
	if errors.Is(err, sql.ErrNoRows) {
		return Agency{}, fault.NotFound("error.notFound")
	}
	if err != nil {
		return Agency{}, fmt.Errorf("agency: get %d: %w", id, err)
	}
	return a, nil
}

// IsWithin reports whether agency id is root itself or below it in the tree:
// what an agency may see of another one.
func (s *Store) IsWithin(ctx context.Context, root, id int64) (bool, error) {
	for depth := 0; depth < 16; depth++ {
		if id == root {
			return true, nil
		}
		var parent sql.NullInt64
		err := s.db.GetContext(ctx, &parent, s.db.Rebind(`SELECT parent_id FROM agencies WHERE id = ?`), id)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("agency: parent of %d: %w", id, err)
		}
		if !parent.Valid {
			return false, nil
		}
		id = parent.Int64
	}
	return false, nil
}

// New is what creating an agency needs.
type New struct {
	ID                  int64 // 0 lets the database choose
	ParentID            *int64
	Name                string
	Alias               string
	Address             string
	EnableFlightService bool
	EnableTrainService  bool
	SettlementCurrency  string
	IsShowBill          bool
	CanCreateSubAgency  bool
	SingleSession       bool
	SSOSecret           string
	AllowedHosts        []string
	Branding            Branding
}

// Create inserts an agency with a generated unique code, in tx.
func (s *Store) Create(ctx context.Context, tx *sqlx.Tx, n New) (Agency, error) {
	level := 0
	if n.ParentID != nil {
		var parentLevel int
		if err := tx.GetContext(ctx, &parentLevel, tx.Rebind(`SELECT proxy_level FROM agencies WHERE id = ?`), *n.ParentID); err != nil {
			return Agency{}, fmt.Errorf("agency: parent %d: %w", *n.ParentID, err)
		}
		level = parentLevel + 1
	}
	if n.SettlementCurrency == "" {
		n.SettlementCurrency = "CNY"
	}
	hosts, _ := json.Marshal(append([]string{}, n.AllowedHosts...))
	now := s.now().UTC()
	for attempt := 0; ; attempt++ {
		code := newCode()
		cols := `parent_id, proxy_level, code, name, alias, address, enable_flight_service, enable_train_service,
			settlement_currency, is_show_bill, can_create_sub_agency, single_session, sso_secret, allowed_hosts,
			theme, favicon, hide_cs_widget, hide_sso_message, created_at, updated_at`
		args := []any{n.ParentID, level, code, n.Name, n.Alias, n.Address, n.EnableFlightService, n.EnableTrainService,
			n.SettlementCurrency, n.IsShowBill, n.CanCreateSubAgency, n.SingleSession, n.SSOSecret, string(hosts),
			n.Branding.Theme, n.Branding.Favicon, n.Branding.HideCSWidget, n.Branding.HideSSOMessage, now, now}
		if n.ID != 0 {
			cols = "id, " + cols
			args = append([]any{n.ID}, args...)
		}
		marks := store.Marks(len(args))
		var id int64
		err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO agencies (`+cols+`) VALUES (`+marks+`) RETURNING id`), args...)
		if store.IsUniqueViolation(err) && attempt < 5 {
			continue
		}
		if err != nil {
			return Agency{}, fmt.Errorf("agency: create %q: %w", n.Name, err)
		}
		if n.ID != 0 {
			if err := store.SyncSequence(ctx, tx, "agencies"); err != nil {
				return Agency{}, err
			}
		}
		var a Agency
		if err := tx.GetContext(ctx, &a, tx.Rebind(`SELECT `+columns+` FROM agencies WHERE id = ?`), id); err != nil {
			return Agency{}, fmt.Errorf("agency: reload %d: %w", id, err)
		}
		return a, nil
	}
}

// newCode is an agency's public code: 'A' and 7 characters without the
// ones people confuse (0/O, 1/I).
func newCode() string {
	const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
	b := make([]byte, 7)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return "A" + string(b)
}

// Company is the agency as authentication sees it (auth.Companies).
func (s *Store) Company(ctx context.Context, id int64) (auth.Company, error) {
	a, err := s.Cached(ctx, id)
	if err != nil {
		return auth.Company{}, err
	}
	return auth.Company{
		ID: a.ID, ParentID: a.ParentID, ProxyLevel: a.ProxyLevel, Common: a.Common(), SingleSession: a.SingleSession,
		SSOSecret: a.SSOSecret, Status: a.Status, HideSSOMessage: a.HideSSOMessage,
	}, nil
}

// Provider is the root of the tree: the agency with proxy level 0.
func (s *Store) Provider(ctx context.Context) (Agency, error) {
	var a Agency
	err := s.db.GetContext(ctx, &a, `SELECT `+columns+` FROM agencies WHERE parent_id IS NULL AND proxy_level = 0 ORDER BY id LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return Agency{}, fault.NotFound("error.notFound")
	}
	if err != nil {
		return Agency{}, fmt.Errorf("agency: provider: %w", err)
	}
	return a, nil
}
