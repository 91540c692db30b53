package auth

import "testing"

func TestPredicates(t *testing.T) {
	t.Parallel()
	flight := CommonConfig{EnableFlightService: true}
	train := CommonConfig{EnableTrainService: true}
	tests := []struct {
		name                                  string
		s                                     Subject
		flight, ticket, finance, agency, rail bool
		landing                               string
	}{
		{"operator with flights", Subject{Roles: []string{RoleOperator}, Common: flight}, true, true, false, false, false, "/flight/booking"},
		{"operator, flights disabled", Subject{Roles: []string{RoleOperator}}, false, true, false, false, false, "/profile"},
		{"operator, trains only", Subject{Roles: []string{RoleOperator}, Common: train}, false, true, false, false, true, "/train/booking"},
		{"finance at level 0", Subject{Roles: []string{RoleFinance}, Common: flight}, false, false, true, false, false, "/bills/statements"},
		{"finance at level 1 without bills", Subject{Roles: []string{RoleFinance}, ProxyLevel: 1}, false, false, false, false, false, "/profile"},
		{"finance at level 1 with isShowBill", Subject{Roles: []string{RoleFinance}, ProxyLevel: 1, Common: CommonConfig{IsShowBill: true}}, false, false, true, false, false, "/bills/statements"},
		{"super user, everything", Subject{Roles: []string{RoleSuperUser}, Common: CommonConfig{EnableFlightService: true, EnableTrainService: true, CanCreateSubAgency: true}}, true, true, true, true, true, "/flight/booking"},
		{"super user at level 1, no sub-agencies", Subject{Roles: []string{RoleSuperUser}, ProxyLevel: 1, Common: CommonConfig{CanCreateSubAgency: true}}, false, true, false, false, false, "/profile"},
		{"no roles", Subject{Common: CommonConfig{EnableFlightService: true, EnableTrainService: true}}, false, false, false, false, true, "/train/booking"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.s
			got := []bool{s.FlightServiceEnable(), s.CanAccessTicket(), s.CanAccessFinance(), s.CanShowAgencyManager(), s.TrainServiceEnable()}
			want := []bool{tt.flight, tt.ticket, tt.finance, tt.agency, tt.rail}
			names := []string{"flightServiceEnable", "canAccessTicket", "canAccessFinance", "canShowAgencyManager", "trainServiceEnable"}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%s = %v, want %v", names[i], got[i], want[i])
				}
			}
			if l := s.LandingPath(); l != tt.landing {
				t.Errorf("landing = %s, want %s", l, tt.landing)
			}
		})
	}
}

func TestRolesAndPermissions(t *testing.T) {
	t.Parallel()
	op := Subject{Roles: []string{RoleOperator}}
	super := Subject{Roles: []string{RoleSuperUser}}
	tests := []struct {
		s    Subject
		role string
		want bool
	}{
		{op, RoleOperator, true}, {op, RoleFinance, false}, {op, RoleSuperUser, false}, {op, "", true},
		{super, RoleOperator, true}, {super, RoleFinance, true}, {super, RoleSuperUser, true},
		{Subject{}, RoleOperator, false},
	}
	for _, tt := range tests {
		if got := tt.s.HasRole(tt.role); got != tt.want {
			t.Errorf("%v.HasRole(%q) = %v", tt.s.Roles, tt.role, got)
		}
	}
	perms := []struct {
		list   []string
		wanted []string
		want   bool
	}{
		{nil, []string{PermAgencyBillsRead}, true},
		{[]string{"all"}, []string{PermAgencyBillsRead}, true},
		{[]string{PermAgencyBillsRead}, []string{PermAgencyBillsRead}, true},
		{[]string{"orders:read"}, []string{PermAgencyBillsRead}, false},
		{[]string{"orders:read"}, []string{PermAgencyBillsRead, "orders:read"}, true},
	}
	for _, p := range perms {
		if got := (Subject{Permissions: p.list}).HasPermission(p.wanted...); got != p.want {
			t.Errorf("HasPermission(%v in %v) = %v", p.wanted, p.list, got)
		}
	}
}

func TestAgencyManagement(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name             string
		s                Subject
		provider, manage bool
	}{
		{"provider", Subject{ProxyLevel: 0}, true, true},
		{"agency that may create sub-agencies", Subject{ProxyLevel: 1, Common: CommonConfig{CanCreateSubAgency: true}}, false, true},
		{"agency that may not", Subject{ProxyLevel: 1}, false, false},
		{"sub-agency", Subject{ProxyLevel: 2}, false, false},
	}
	for _, tt := range tests {
		if got := tt.s.IsProvider(); got != tt.provider {
			t.Errorf("%s: IsProvider = %v", tt.name, got)
		}
		if got := tt.s.ManagesAgencies(); got != tt.manage {
			t.Errorf("%s: ManagesAgencies = %v", tt.name, got)
		}
	}
}
