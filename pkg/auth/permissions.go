package auth

import "slices"

// Roles of spec §6.
const (
	RoleOperator  = "operator"
	RoleFinance   = "finance"
	RoleSuperUser = "SuperUser"
)

// Roles lists every assignable role.
var Roles = []string{RoleOperator, RoleFinance, RoleSuperUser}

// PermAgencyBillsRead grants the sub-agency bill detail page.
const PermAgencyBillsRead = "agencybills:read"

// CommonConfig is the company's switches the portal's access rules read:
// its services, settlement currency, bills and sub-agencies. Spec §3
// commonConfig.
type CommonConfig struct {
	// EnableTrainService is whether the company has the train service: its
	// users may search, book and see train orders.
	EnableTrainService bool `json:"enableTrainService"`
	// EnableFlightService is whether the company has the flight service:
	// its operators and SuperUsers may search and book flights and group
	// flights.
	EnableFlightService bool `json:"enableFlightService"`
	// SettlementCurrency is the ISO 4217 code of the currency the company
	// is priced, charged and credited in.
	SettlementCurrency string `json:"settlementCurrency"`
	// IsShowBill is whether the company's finance users and SuperUsers see
	// its bills (wallet, transactions, statements); the provider
	// (proxyLevel 0) always does.
	IsShowBill bool `json:"isShowBill"`
	// CanCreateSubAgency is whether the company may create and manage
	// sub-agencies.
	CanCreateSubAgency bool `json:"canCreateSubAgency"`
}

// Subject is who is asking: the user's roles and permission list and their
// company's settings. Every access rule of spec §6 is a method here, so the
// API, the portal guard and the menus all ask the same place.
type Subject struct {
	Roles       []string
	Permissions []string
	ProxyLevel  int
	Common      CommonConfig
}

// HasRole reports whether the subject holds role; SuperUser passes every role
// check (spec §2).
func (s Subject) HasRole(role string) bool {
	return role == "" || slices.Contains(s.Roles, RoleSuperUser) || slices.Contains(s.Roles, role)
}

// HasPermission is the permission-list check: an empty list or 'all' grants
// everything; otherwise any match grants.
func (s Subject) HasPermission(wanted ...string) bool {
	if len(s.Permissions) == 0 || slices.Contains(s.Permissions, "all") {
		return true
	}
	for _, w := range wanted {
		if slices.Contains(s.Permissions, w) {
			return true
		}
	}
	return false
}

func (s Subject) isOperatorOrSuper() bool {
	return slices.Contains(s.Roles, RoleOperator) || slices.Contains(s.Roles, RoleSuperUser)
}

// FlightServiceEnable: company flight enabled and role operator or SuperUser.
func (s Subject) FlightServiceEnable() bool {
	return s.Common.EnableFlightService && s.isOperatorOrSuper()
}

// CanAccessTicket: operator or SuperUser.
func (s Subject) CanAccessTicket() bool { return s.isOperatorOrSuper() }

// CanAccessFinance: (finance or SuperUser) and (proxyLevel 0 or isShowBill).
func (s Subject) CanAccessFinance() bool {
	role := slices.Contains(s.Roles, RoleFinance) || slices.Contains(s.Roles, RoleSuperUser)
	return role && (s.ProxyLevel == 0 || s.Common.IsShowBill)
}

// CanShowAgencyManager: proxyLevel 0 and canCreateSubAgency.
func (s Subject) CanShowAgencyManager() bool {
	return s.ProxyLevel == 0 && s.Common.CanCreateSubAgency
}

// IsProvider: the provider's own staff (proxyLevel 0).
func (s Subject) IsProvider() bool { return s.ProxyLevel == 0 }

// ManagesAgencies: the provider manages every agency; another agency
// manages its sub-agencies only where it may create them (canCreateSubAgency).
func (s Subject) ManagesAgencies() bool { return s.IsProvider() || s.Common.CanCreateSubAgency }

// TrainServiceEnable: company enableTrainService.
func (s Subject) TrainServiceEnable() bool { return s.Common.EnableTrainService }

// LandingPath is where a user goes after login (spec §2).
func (s Subject) LandingPath() string {
	switch {
	case s.FlightServiceEnable():
		return "/flight/booking"
	case s.CanAccessFinance():
		return "/bills/statements"
	case s.TrainServiceEnable():
		return "/train/booking"
	}
	return "/profile"
}
