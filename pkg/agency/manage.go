package agency

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/store"
)

// Agency statuses; a blocked agency's users cannot log in.
const (
	StatusActive  = "active"
	StatusBlocked = "blocked"
)

// CreditPeriodUnits are the spec's credit period units.
var CreditPeriodUnits = []string{"day", "week", "month", "year"}

// DeleteGuard reports why an agency may not be deleted ("" when nothing
// stands in the way); the order package registers one for its orders.
type DeleteGuard func(ctx context.Context, agencyID int64) (reasonKey string, err error)

// Service manages the agency network: a parent manages its own sub-agencies,
// the provider manages every agency.
type Service struct {
	db     *store.DB
	store  *Store
	ledger *ledger.Ledger
	guards []DeleteGuard
	now    func() time.Time
}

// NewService returns the agency manager.
func NewService(db *store.DB, st *Store, l *ledger.Ledger) *Service {
	return &Service{db: db, store: st, ledger: l, now: time.Now}
}

// AddDeleteGuard registers a reason that can refuse a deletion.
func (s *Service) AddDeleteGuard(g DeleteGuard) { s.guards = append(s.guards, g) }

// Managed loads agency id if actor may manage it: the provider any agency
// below it, a parent its direct sub-agencies. Anything else is not found,
// so nobody learns which agencies exist outside their reach.
func (s *Service) Managed(ctx context.Context, actor auth.Principal, id int64) (Agency, error) {
	a, err := s.store.Get(ctx, id)
	if err != nil {
		return Agency{}, err
	}
	if a.ID == actor.AgencyID {
		return Agency{}, fault.NotFound("")
	}
	if actor.Subject.IsProvider() {
		ok, err := s.store.IsWithin(ctx, actor.AgencyID, id)
		if err != nil {
			return Agency{}, err
		}
		if ok {
			return a, nil
		}
		return Agency{}, fault.NotFound("")
	}
	if a.ParentID == nil || *a.ParentID != actor.AgencyID {
		return Agency{}, fault.NotFound("")
	}
	return a, nil
}

// Summary is an agency as the agency manager lists it.
type Summary struct {
	// ID is the agency's id, for the /base/v2/agencies/{id} calls.
	ID int64 `json:"id"`
	// ParentID is the id of the agency directly above this one (its
	// upper-tier partner, or the provider); absent for the provider itself.
	ParentID *int64 `json:"parentId,omitempty"`
	// ProxyLevel is the agency's depth in the agency tree: 0 the provider,
	// 1 an agency directly under the provider, 2 a sub-agency of that one,
	// and so on.
	ProxyLevel int `json:"proxyLevel"`
	// Code is the agency's unique public code, generated at creation: "A"
	// and 7 characters (digits 2–9 and capital letters other than I and O).
	Code string `json:"code"`
	// Name is the agency's company name.
	Name string `json:"name"`
	// Alias is the company's short name; empty when it has none.
	Alias string `json:"alias"`
	// ContactName is the name of the agency's contact person.
	ContactName string `json:"contactName"`
	// ContactEmail is the contact's email address, where top-up notices go;
	// empty when there is none.
	ContactEmail string `json:"contactEmail"`
	// ContactPhone is the contact's phone number.
	ContactPhone string `json:"contactPhone"`
	// Status is active, or blocked: a blocked agency's users and API keys
	// cannot log in.
	Status string `json:"status"`
	// Currency is the agency's settlement currency (ISO 4217), the currency
	// of balance, creditLimit and available.
	Currency string `json:"settlementCurrency"`
	// Balance is the agency's wallet balance, a decimal string in the
	// settlement currency (e.g. "1234.50"); negative while it spends on
	// credit.
	Balance string `json:"balance"`
	// CreditLimit is the credit granted to the agency, a decimal string in
	// the settlement currency; zero when it has none.
	CreditLimit string `json:"creditLimit"`
	// Available is what the agency can still spend: balance plus
	// creditLimit, a decimal string in the settlement currency.
	Available string `json:"available"`
	// CreatedAt is when the agency was created (RFC 3339, UTC).
	CreatedAt time.Time `json:"createdAt"`
	// Searches is how many flight searches the agency's users have started
	// (the look of look-to-book).
	Searches int64 `json:"searches"`
	// Verifications is how many price checks of a solution
	// (POST /shopping/v2/flight/solutions/{id}/verification) the agency has
	// made.
	Verifications int64 `json:"verifications"`
	// Bookings is how many flight orders the agency has booked.
	Bookings   int64  `json:"bookings"`
	LookToBook string `json:"lookToBook" jsonschema_description:"searches per booking, empty until the first booking"`
}

// summary is a's list entry with its wallet figures and look-to-book
// counters lc (read apart from the row: see looks.go).
func (s *Service) summary(ctx context.Context, a Agency, lc LookCounts) (Summary, error) {
	bal, err := s.ledger.WalletBalance(ctx, a.ID, a.SettlementCurrency)
	if err != nil {
		return Summary{}, err
	}
	amt := func(v int64) string { return money.Amount{Minor: v, Currency: a.SettlementCurrency}.String() }
	return Summary{ID: a.ID, ParentID: a.ParentID, ProxyLevel: a.ProxyLevel, Code: a.Code, Name: a.Name, Alias: a.Alias,
		ContactName: a.ContactName, ContactEmail: a.ContactEmail, ContactPhone: a.ContactPhone, Status: a.Status,
		Currency: a.SettlementCurrency, Balance: amt(bal.Balance), CreditLimit: amt(bal.CreditLimit), Available: amt(bal.Available()),
		CreatedAt: a.CreatedAt, Searches: lc.Searches, Verifications: lc.Verifications, Bookings: lc.Bookings, LookToBook: lc.LookToBook()}, nil
}

// summaryOf is summary with a's counters read.
func (s *Service) summaryOf(ctx context.Context, a Agency) (Summary, error) {
	lc, err := s.store.LookCounts(ctx, a.ID)
	if err != nil {
		return Summary{}, err
	}
	return s.summary(ctx, a, lc)
}

// ListFilter narrows the agency list.
type ListFilter struct {
	Keyword  string
	Status   string
	Page     int
	PageSize int
}

// List returns the agencies actor manages, newest first.
func (s *Service) List(ctx context.Context, actor auth.Principal, f ListFilter) ([]Summary, int, error) {
	rows, total, err := s.ListAgencies(ctx, actor, f)
	if err != nil {
		return nil, 0, err
	}
	ids := make([]int64, len(rows))
	for i, a := range rows {
		ids[i] = a.ID
	}
	// The page's counters in one query rather than one per row.
	looks, err := s.store.LookCountsOf(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Summary, 0, len(rows))
	for _, a := range rows {
		sum, err := s.summary(ctx, a, looks[a.ID])
		if err != nil {
			return nil, 0, err
		}
		out = append(out, sum)
	}
	return out, total, nil
}

// ListAgencies is List without the wallet figures: the agency rows
// themselves, for callers that work through them (a batch of statements).
func (s *Service) ListAgencies(ctx context.Context, actor auth.Principal, f ListFilter) ([]Agency, int, error) {
	ids, err := s.managedIDs(ctx, actor)
	if err != nil {
		return nil, 0, err
	}
	if len(ids) == 0 {
		return []Agency{}, 0, nil
	}
	where := []string{"id IN (?)"}
	args := []any{ids}
	if k := strings.TrimSpace(f.Keyword); k != "" {
		where = append(where, "(LOWER(name) LIKE ? OR LOWER(alias) LIKE ? OR LOWER(code) LIKE ? OR LOWER(contact_email) LIKE ?)")
		like := "%" + strings.ToLower(k) + "%"
		args = append(args, like, like, like, like)
	}
	if f.Status != "" {
		where = append(where, "status = ?")
		args = append(args, f.Status)
	}
	cond := strings.Join(where, " AND ")
	q, qargs, err := sqlx.In(`SELECT COUNT(*) FROM agencies WHERE `+cond, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("agency: list: %w", err)
	}
	var total int
	if err := s.db.GetContext(ctx, &total, s.db.Rebind(q), qargs...); err != nil {
		return nil, 0, fmt.Errorf("agency: count: %w", err)
	}
	q, qargs, err = sqlx.In(`SELECT `+columns+` FROM agencies WHERE `+cond+` ORDER BY id DESC LIMIT ? OFFSET ?`, append(args, f.PageSize, (f.Page-1)*f.PageSize)...)
	if err != nil {
		return nil, 0, fmt.Errorf("agency: list: %w", err)
	}
	rows := []Agency{}
	if err := s.db.SelectContext(ctx, &rows, s.db.Rebind(q), qargs...); err != nil {
		return nil, 0, fmt.Errorf("agency: list: %w", err)
	}
	return rows, total, nil
}

// managedIDs are the agencies actor manages: every descendant for the
// provider, the direct children otherwise.
func (s *Service) managedIDs(ctx context.Context, actor auth.Principal) ([]int64, error) {
	var ids []int64
	frontier := []int64{actor.AgencyID}
	for depth := 0; len(frontier) > 0 && depth < 16; depth++ {
		q, args, err := sqlx.In(`SELECT id FROM agencies WHERE parent_id IN (?) ORDER BY id`, frontier)
		if err != nil {
			return nil, err
		}
		var next []int64
		if err := s.db.SelectContext(ctx, &next, s.db.Rebind(q), args...); err != nil {
			return nil, fmt.Errorf("agency: children: %w", err)
		}
		ids = append(ids, next...)
		if !actor.Subject.IsProvider() {
			break
		}
		frontier = next
	}
	return ids, nil
}

// Profile is the agency's descriptive fields: names, address and contact.
// Spec §3 Agency.
type Profile struct {
	// Name is the agency's company name, 1 to 100 characters; required.
	Name string `json:"name"`
	// Alias is the company's short name, at most 50 characters; optional.
	Alias string `json:"alias"`
	// Address is the company's address, at most 200 characters.
	Address string `json:"address"`
	// ContactName is the name of the agency's contact person; required.
	ContactName string `json:"contactName"`
	// ContactEmail is the contact's email address, where top-up notices
	// go; optional, but well formed when given.
	ContactEmail string `json:"contactEmail"`
	// ContactPhone is the contact's phone number, at most 32 characters;
	// required.
	ContactPhone    string `json:"contactPhone"`
	CustomerService string `json:"customerService" jsonschema_description:"dedicated customer service contact"`
	// ExtraInfo is free notes about the agency, at most 2000 characters.
	ExtraInfo    string   `json:"extraInfo"`
	AllowedHosts []string `json:"allowedHosts" jsonschema_description:"origins allowed to frame the portal after single login"`
}

func (p *Profile) validate() map[string]string {
	p.Name, p.Alias, p.Address = strings.TrimSpace(p.Name), strings.TrimSpace(p.Alias), strings.TrimSpace(p.Address)
	p.ContactName, p.ContactEmail, p.ContactPhone = strings.TrimSpace(p.ContactName), strings.TrimSpace(p.ContactEmail), strings.TrimSpace(p.ContactPhone)
	errs := map[string]string{}
	if p.Name == "" || len([]rune(p.Name)) > 100 {
		errs["name"] = "agency.error.name"
	}
	if p.ContactName == "" {
		errs["contactName"] = "agency.error.contactName"
	}
	// The contact email is optional (an agency may be reached by phone);
	// one given must be well formed.
	if p.ContactEmail != "" && !auth.ValidEmail(p.ContactEmail) {
		errs["contactEmail"] = "agency.error.contactEmail"
	}
	if p.ContactPhone == "" || len(p.ContactPhone) > 32 {
		errs["contactPhone"] = "agency.error.contactPhone"
	}
	for _, h := range p.AllowedHosts {
		if !validURL(h) || h == "" {
			errs["allowedHosts"] = "agency.error.url"
		}
	}
	if len([]rune(p.ExtraInfo)) > 2000 || len([]rune(p.Address)) > 200 || len([]rune(p.Alias)) > 50 {
		errs["extraInfo"] = "error.field.tooLong"
	}
	return errs
}

// CreateRequest creates a sub-agency with its super admin.
type CreateRequest struct {
	Profile
	// Config is the new agency's settings, as PUT
	// /base/v2/agencies/{id}/config takes them; what is left empty gets its
	// default.
	Config Config `json:"config"`
	// SuperUser is the new agency's first user, its super admin with the
	// SuperUser role.
	SuperUser NewSuperAdmin `json:"superUser"`
}

// NewSuperAdmin is the new agency's first user.
type NewSuperAdmin struct {
	// Username is the login name: 3 to 50 characters, letters, digits and
	// . _ @ -, starting with a letter or digit; case-insensitive (stored
	// lower-case) and unique across the platform.
	Username string `json:"username"`
	// Email is the user's email address; required.
	Email string `json:"email"`
	// Nickname is the name shown for the user, at most 50 characters.
	Nickname string `json:"nickname"`
	// Password is the user's first password, 6 to 15 characters and not a
	// commonly used one.
	Password string `json:"password"`
}

// Create adds a sub-agency of the actor's agency (only where the actor's
// agency may create sub-agencies) with its super admin, in one transaction.
func (s *Service) Create(ctx context.Context, actor auth.Principal, r CreateRequest) (Agency, error) {
	if !actor.Subject.ManagesAgencies() {
		return Agency{}, fault.Forbidden()
	}
	errs := r.Profile.validate()
	for k, v := range r.Config.Validate() {
		errs[k] = v
	}
	if len(errs) > 0 {
		return Agency{}, fault.Validation(errs)
	}
	if err := mayChangeChannels(actor, nil, r.Config.Settings.PaymentChannels); err != nil {
		return Agency{}, err
	}
	var created Agency
	now := s.now().UTC()
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		parent := actor.AgencyID
		a, err := s.store.Create(ctx, tx, New{ParentID: &parent, Name: r.Name, Alias: r.Alias, Address: r.Address,
			EnableFlightService: r.Config.Settings.EnableFlight, EnableTrainService: r.Config.Settings.EnableTrain,
			SettlementCurrency: r.Config.Settings.SettlementCurrency, IsShowBill: r.Config.Settings.IsShowBill,
			CanCreateSubAgency: r.Config.Settings.CanCreateSubAgency, AllowedHosts: r.AllowedHosts})
		if err != nil {
			return err
		}
		if err := s.writeProfile(ctx, tx, a.ID, r.Profile, now); err != nil {
			return err
		}
		if err := s.writeConfig(ctx, tx, a.ID, r.Config, now); err != nil {
			return err
		}
		if _, err := auth.CreateUser(ctx, tx, auth.NewUser{AgencyID: a.ID, Username: r.SuperUser.Username, Email: r.SuperUser.Email,
			Nickname: r.SuperUser.Nickname, Roles: []string{auth.RoleSuperUser}, IsSuperAdmin: true, Password: r.SuperUser.Password}, now); err != nil {
			if fe, ok := fault.As(err); ok && len(fe.Fields) > 0 {
				prefixed := map[string]string{}
				for k, v := range fe.Fields {
					prefixed["superUser."+k] = v
				}
				return fault.Validation(prefixed)
			}
			return err
		}
		created = a
		return s.log(ctx, tx, actor, "agency.create", a.ID, now)
	})
	if err != nil {
		return Agency{}, err
	}
	return s.store.Get(ctx, created.ID)
}

func (s *Service) writeProfile(ctx context.Context, tx *sqlx.Tx, id int64, p Profile, now time.Time) error {
	hosts, _ := json.Marshal(append([]string{}, p.AllowedHosts...))
	_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE agencies SET name = ?, alias = ?, address = ?, contact_name = ?, contact_email = ?,
		contact_phone = ?, customer_service = ?, extra_info = ?, allowed_hosts = ?, updated_at = ? WHERE id = ?`),
		p.Name, p.Alias, p.Address, p.ContactName, p.ContactEmail, p.ContactPhone, strings.TrimSpace(p.CustomerService),
		strings.TrimSpace(p.ExtraInfo), string(hosts), now, id)
	if err != nil {
		return fmt.Errorf("agency: update profile %d: %w", id, err)
	}
	return nil
}

func (s *Service) writeConfig(ctx context.Context, tx *sqlx.Tx, id int64, c Config, now time.Time) error {
	flight, _ := json.Marshal(c.Flight)
	train, _ := json.Marshal(c.Train)
	st := c.Settings
	_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE agencies SET can_create_sub_agency = ?, email_language = ?, settlement_currency = ?,
		is_show_bill = ?, send_email_to_sub = ?, hide_pnr_booking = ?, hide_mainland = ?, disable_payment = ?, only_own_orders = ?,
		invoice_type_on_excel = ?, enable_flight_service = ?, enable_train_service = ?, flight_settings = ?, train_settings = ?,
		time_zone = ?, payment_channels = ?, updated_at = ? WHERE id = ?`),
		st.CanCreateSubAgency, st.EmailLanguage, st.SettlementCurrency, st.IsShowBill, st.SendEmailToSub, st.HidePNRBooking,
		st.HideMainland, st.DisablePayment, st.OnlyOwnOrders, st.InvoiceTypeOnExcel, st.EnableFlight, st.EnableTrain,
		string(flight), string(train), st.TimeZone, encodeChannels(st.PaymentChannels), now, id)
	if err != nil {
		return fmt.Errorf("agency: update config %d: %w", id, err)
	}
	return nil
}

// log writes the user-log line of a change to agency target, naming the
// agency as it is called now and any further facts (key, value pairs).
func (s *Service) log(ctx context.Context, tx *sqlx.Tx, actor auth.Principal, action string, target int64, now time.Time, facts ...string) error {
	var name string
	if err := tx.GetContext(ctx, &name, tx.Rebind(`SELECT name FROM agencies WHERE id = ?`), target); err != nil {
		return fmt.Errorf("agency: name of %d for the log: %w", target, err)
	}
	e := audit.Entry{AgencyID: actor.AgencyID, Username: actor.Username, Action: action, Target: fmt.Sprintf("agency:%d", target),
		Facts: audit.With(append([]string{"agency", name}, facts...)...), CreatedAt: now}
	if actor.UserID != 0 {
		e.UserID = &actor.UserID
	}
	return audit.Write(ctx, tx, e)
}

// Update changes a managed agency's profile.
func (s *Service) Update(ctx context.Context, actor auth.Principal, id int64, p Profile) (Agency, error) {
	defer s.store.Forget(id) // after the commit
	if _, err := s.Managed(ctx, actor, id); err != nil {
		return Agency{}, err
	}
	if errs := p.validate(); len(errs) > 0 {
		return Agency{}, fault.Validation(errs)
	}
	now := s.now().UTC()
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.writeProfile(ctx, tx, id, p, now); err != nil {
			return err
		}
		return s.log(ctx, tx, actor, "agency.update", id, now)
	})
	if err != nil {
		return Agency{}, err
	}
	return s.store.Get(ctx, id)
}

// SettlementCurrencyChanged is the notice key of spec §8 that a changed
// settlement currency shows.
const SettlementCurrencyChanged = "agencyManager.config.common.settlementCurrency.change"

// SetConfig replaces a managed agency's settings. It reports whether the
// settlement currency changed, for the caller to show the spec's notice.
func (s *Service) SetConfig(ctx context.Context, actor auth.Principal, id int64, c Config) (Agency, bool, error) {
	defer s.store.Forget(id) // after the commit
	a, err := s.Managed(ctx, actor, id)
	if err != nil {
		return Agency{}, false, err
	}
	if errs := c.Validate(); len(errs) > 0 {
		return Agency{}, false, fault.Validation(errs)
	}
	// Only the provider may let an agency create sub-agencies below a
	// sub-agency's own level; a parent cannot grant more than it has.
	if c.Settings.CanCreateSubAgency && !actor.Subject.IsProvider() && !actor.Subject.Common.CanCreateSubAgency {
		return Agency{}, false, fault.Forbidden()
	}
	// The payment channels are the provider's to switch: a parent agency
	// sends back what it read (GET, then PUT), or is refused.
	if err := mayChangeChannels(actor, a.Config().Settings.PaymentChannels, c.Settings.PaymentChannels); err != nil {
		return Agency{}, false, err
	}
	now := s.now().UTC()
	err = s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.writeConfig(ctx, tx, id, c, now); err != nil {
			return err
		}
		return s.log(ctx, tx, actor, "agency.config", id, now)
	})
	if err != nil {
		return Agency{}, false, err
	}
	updated, err := s.store.Get(ctx, id)
	return updated, updated.SettlementCurrency != a.SettlementCurrency, err
}

// CreditRequest sets an agency's credit line.
type CreditRequest struct {
	// CreditLimit is the credit the agency may spend beyond its balance, a
	// decimal amount of zero or more in its settlement currency; required.
	// A parent agency's grant is held from the parent's own wallet.
	CreditLimit string `json:"creditLimit"`
	// CreditPeriod is the agreed credit term in creditPeriodUnit, 0 to 366;
	// recorded and shown, not enforced by the platform.
	CreditPeriod int `json:"creditPeriod"`
	// CreditPeriodUnit is the unit of creditPeriod; default month.
	CreditPeriodUnit string `json:"creditPeriodUnit" jsonschema:"enum=day,enum=week,enum=month,enum=year"`
}

// SetCredit sets a managed agency's credit limit (in its settlement
// currency) and credit period.
func (s *Service) SetCredit(ctx context.Context, actor auth.Principal, id int64, r CreditRequest) (Summary, error) {
	defer s.store.Forget(id) // after the commit
	a, limit, err := s.creditFor(ctx, actor, id, &r)
	if err != nil {
		return Summary{}, err
	}
	now := s.now().UTC()
	rest := func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE agencies SET credit_period = ?, credit_period_unit = ?, updated_at = ? WHERE id = ?`),
			r.CreditPeriod, r.CreditPeriodUnit, now, id); err != nil {
			return fmt.Errorf("agency: credit period: %w", err)
		}
		return s.log(ctx, tx, actor, "agency.credit", id, now, "amount", limit.String(), "currency", limit.Currency)
	}
	if actor.Subject.IsProvider() {
		// The provider's credit lines are the provider's risk.
		err = s.db.InTx(ctx, func(tx *sqlx.Tx) error {
			if err := s.ledger.SetCreditLimitTx(ctx, tx, id, a.SettlementCurrency, limit.Minor); err != nil {
				return err
			}
			return rest(tx)
		})
	} else {
		// A parent carries the line it grants: it is held from its wallet.
		err = s.ledger.SetCoveredCreditLimit(ctx, actor.AgencyID, id, a.SettlementCurrency, limit.Minor, actor.Username, rest)
	}
	if err != nil {
		return Summary{}, err
	}
	a, err = s.store.Get(ctx, id)
	if err != nil {
		return Summary{}, err
	}
	return s.summaryOf(ctx, a)
}

// SetStatus blocks or unblocks a managed agency.
func (s *Service) SetStatus(ctx context.Context, actor auth.Principal, id int64, status string) (Agency, error) {
	defer s.store.Forget(id) // after the commit
	if status != StatusActive && status != StatusBlocked {
		return Agency{}, fault.Validation(map[string]string{"status": "agency.error.status"})
	}
	if _, err := s.Managed(ctx, actor, id); err != nil {
		return Agency{}, err
	}
	now := s.now().UTC()
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE agencies SET status = ?, updated_at = ? WHERE id = ?`), status, now, id); err != nil {
			return fmt.Errorf("agency: set status: %w", err)
		}
		return s.log(ctx, tx, actor, "agency."+status, id, now)
	})
	if err != nil {
		return Agency{}, err
	}
	return s.store.Get(ctx, id)
}

// Delete removes a managed agency that has no money, no sub-agencies and
// nothing a guard objects to; otherwise HTTP 409 with the reason.
func (s *Service) Delete(ctx context.Context, actor auth.Principal, id int64) error {
	defer s.store.Forget(id) // after the commit
	a, err := s.Managed(ctx, actor, id)
	if err != nil {
		return err
	}
	var subs int
	if err := s.db.GetContext(ctx, &subs, s.db.Rebind(`SELECT COUNT(*) FROM agencies WHERE parent_id = ?`), id); err != nil {
		return fmt.Errorf("agency: count sub-agencies: %w", err)
	}
	if subs > 0 {
		return fault.New(fault.CodeConflict, http.StatusConflict, "agency.error.hasSubAgencies")
	}
	var moved int
	if err := s.db.GetContext(ctx, &moved, s.db.Rebind(`SELECT COUNT(*) FROM ledger_transfers WHERE agency_id = ?`), id); err != nil {
		return fmt.Errorf("agency: count transfers: %w", err)
	}
	if moved > 0 {
		return fault.New(fault.CodeConflict, http.StatusConflict, "agency.error.hasBalance")
	}
	for _, g := range s.guards {
		key, err := g(ctx, id)
		if err != nil {
			return err
		}
		if key != "" {
			return fault.New(fault.CodeConflict, http.StatusConflict, key)
		}
	}
	now := s.now().UTC()
	return s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		for _, q := range []string{
			`DELETE FROM member_cards WHERE agency_id = ?`,
			`DELETE FROM often_used_passengers WHERE agency_id = ?`,
			`DELETE FROM sessions WHERE agency_id = ?`,
			`DELETE FROM api_keys WHERE agency_id = ?`,
			`DELETE FROM sso_codes WHERE agency_id = ?`,
			`DELETE FROM users WHERE agency_id = ?`,
			`DELETE FROM ledger_accounts WHERE agency_id = ?`,
			`DELETE FROM agency_look_counts WHERE agency_id = ?`,
			`DELETE FROM agencies WHERE id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, tx.Rebind(q), id); err != nil {
				return fmt.Errorf("agency: delete %d: %w", id, err)
			}
		}
		e := audit.Entry{AgencyID: actor.AgencyID, Username: actor.Username, Action: "agency.delete", Target: fmt.Sprintf("agency:%d %s", id, a.Name),
			Facts: audit.With("agency", a.Name), CreatedAt: now}
		if actor.UserID != 0 {
			e.UserID = &actor.UserID
		}
		return audit.Write(ctx, tx, e)
	})
}

// Detail is one managed agency with everything the agency manager shows.
type Detail struct {
	Summary
	// Profile is the agency's descriptive fields, as PUT
	// /base/v2/agencies/{id} takes them.
	Profile Profile `json:"profile"`
	// Config is the agency's settings, as PUT
	// /base/v2/agencies/{id}/config takes them.
	Config Config `json:"config"`
	// CreditPeriod is the agreed credit term in creditPeriodUnit, as PUT
	// /base/v2/agencies/{id}/credit set it; 0 when none was set.
	CreditPeriod int `json:"creditPeriod"`
	// CreditPeriodUnit is the unit of creditPeriod: day, week, month or
	// year (month unless set otherwise).
	CreditPeriodUnit string `json:"creditPeriodUnit"`
	// APIKeys are the agency's API keys, revoked ones included; each shows
	// only its prefix, never the key.
	APIKeys []auth.APIKey `json:"apiKeys"`
	// Branding is how the portal looks for the agency's users.
	Branding Branding `json:"branding"`
}

// Get returns a managed agency's detail.
func (s *Service) Get(ctx context.Context, actor auth.Principal, id int64, keys func(context.Context, int64) ([]auth.APIKey, error)) (Detail, error) {
	a, err := s.Managed(ctx, actor, id)
	if err != nil {
		return Detail{}, err
	}
	sum, err := s.summaryOf(ctx, a)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Summary: sum, Profile: Profile{Name: a.Name, Alias: a.Alias, Address: a.Address, ContactName: a.ContactName,
		ContactEmail: a.ContactEmail, ContactPhone: a.ContactPhone, CustomerService: a.CustomerService, ExtraInfo: a.ExtraInfo,
		AllowedHosts: a.AllowedHosts()}, Config: a.Config(), CreditPeriod: a.CreditPeriod, CreditPeriodUnit: a.CreditPeriodUnit,
		Branding: a.Branding(), APIKeys: []auth.APIKey{}}
	if keys != nil {
		if d.APIKeys, err = keys(ctx, id); err != nil {
			return Detail{}, err
		}
	}
	return d, nil
}
