package web

import (
	"slices"
	"strings"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/templates"
)

// Route is a portal route of spec §2 with its metadata.
type Route struct {
	Name     string
	Path     string // ServeMux-style, {id} for a segment
	Role     string // "", operator, finance, SuperUser
	Perm     string // a permission string, e.g. agencybills:read
	Layout   string
	TitleKey string // "" → the site short name
	Public   bool   // reachable without login (spec §2 navigation guard)
}

// Routes is the portal's route table (spec §2). The navigation guard and page
// titles read it; pages register their handlers by name.
var Routes = []Route{
	{Name: "home", Path: "/", Layout: templates.LayoutHome, Public: true},
	{Name: "terms", Path: "/terms", Layout: templates.LayoutNormal, TitleKey: "route.terms", Public: true},
	{Name: "privacy", Path: "/privacy", Layout: templates.LayoutNormal, TitleKey: "route.privacy", Public: true},
	{Name: "login", Path: "/login", Layout: templates.LayoutNormal, TitleKey: "portal.login.title", Public: true},
	{Name: "profile", Path: "/profile", Layout: templates.LayoutNormal, TitleKey: "route.profile", Public: true},
	{Name: "users", Path: "/users", Layout: templates.LayoutNormal, TitleKey: "route.users"},
	{Name: "user-log", Path: "/user-log", Role: "SuperUser", Layout: templates.LayoutNormal, TitleKey: "route.userLog"},
	{Name: "company", Path: "/company", Role: "SuperUser", Layout: templates.LayoutNormal, TitleKey: "route.company"},
	{Name: "flight-booking", Path: "/flight/booking", Role: "operator", Layout: templates.LayoutBooking, TitleKey: "route.flightBooking"},
	{Name: "flight-booking-confirm", Path: "/flight/booking/confirm", Role: "operator", Layout: templates.LayoutBooking, TitleKey: "route.flightBookingConfirm"},
	{Name: "flight-orders", Path: "/flight/orders", Role: "operator", Layout: templates.LayoutOrder, TitleKey: "route.flightOrders"},
	{Name: "flight-orders-voyage", Path: "/flight/orders/voyage", Role: "operator", Layout: templates.LayoutOrder, TitleKey: "route.flightOrdersVoyage"},
	{Name: "flight-orders-id", Path: "/flight/orders/{id}", Role: "operator", Layout: templates.LayoutOrder, TitleKey: "route.flightOrder"},
	{Name: "flight-group-booking", Path: "/flight/group/booking", Role: "operator", Layout: templates.LayoutBooking, TitleKey: "route.groupBooking"},
	{Name: "flight-group-booking-confirm", Path: "/flight/group/booking/confirm", Role: "operator", Layout: templates.LayoutBooking, TitleKey: "route.groupBookingConfirm"},
	{Name: "flight-group-order", Path: "/flight/group/order", Role: "operator", Layout: templates.LayoutOrder, TitleKey: "route.groupOrders"},
	{Name: "flight-group-order-id", Path: "/flight/group/order/{id}", Role: "operator", Layout: templates.LayoutOrder, TitleKey: "route.groupOrder"},
	{Name: "train-booking", Path: "/train/booking", Role: "operator", Layout: templates.LayoutBooking, TitleKey: "route.trainBooking"},
	{Name: "train-orders", Path: "/train/orders", Layout: templates.LayoutOrder, TitleKey: "route.trainOrders"},
	{Name: "bills-wallet", Path: "/bills/wallet", Role: "finance", Layout: templates.LayoutBill, TitleKey: "route.wallet"},
	{Name: "bills-transactions", Path: "/bills/transactions", Role: "finance", Layout: templates.LayoutBill, TitleKey: "route.transactions"},
	{Name: "bills-statements", Path: "/bills/statements", Role: "finance", Layout: templates.LayoutBill, TitleKey: "route.statements"},
	{Name: "agency-manager", Path: "/agency-manager", Role: "finance", Layout: templates.LayoutAgencyManager, TitleKey: "route.agencyManager"},
	{Name: "agency-manager-statements", Path: "/agency-manager/statements", Role: "finance", Layout: templates.LayoutAgencyManager, TitleKey: "route.agencyStatements"},
	{Name: "agency-manager-bills-id", Path: "/agency-manager/bills/{id}", Perm: "agencybills:read", Layout: templates.LayoutAgencyManager, TitleKey: "route.agencyBill"},
}

// MatchRoute finds the route whose path pattern matches path.
func MatchRoute(path string) (Route, bool) {
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	segs := strings.Split(path, "/")
	var best Route
	found, bestParams := false, 0
	for _, r := range Routes {
		rsegs := strings.Split(r.Path, "/")
		if len(rsegs) != len(segs) {
			continue
		}
		params, ok := 0, true
		for i, s := range rsegs {
			if strings.HasPrefix(s, "{") {
				if segs[i] == "" {
					ok = false
					break
				}
				params++
			} else if s != segs[i] {
				ok = false
				break
			}
		}
		// A literal route (/flight/orders/voyage) wins over a parameter one.
		if ok && (!found || params < bestParams) {
			best, found, bestParams = r, true, params
		}
	}
	return best, found
}

// RouteByName returns a route of the table; a missing name is a programming
// error.
func RouteByName(name string) Route {
	for _, r := range Routes {
		if r.Name == name {
			return r
		}
	}
	panic("web: no route named " + name)
}

// menuEntry is a menu item shown only to whom show allows.
type menuEntry struct {
	templates.NavItem
	show func(auth.Subject) bool
}

func isSuperUser(s auth.Subject) bool { return slices.Contains(s.Roles, auth.RoleSuperUser) }

func anyone(auth.Subject) bool { return true }

// topNav is the top bar of spec §2, each entry behind its §6 predicate.
var topNav = []menuEntry{
	{templates.NavItem{Key: "nav.flights", Href: "/flight/booking"}, auth.Subject.FlightServiceEnable},
	{templates.NavItem{Key: "nav.groupTicket", Href: "/flight/group/booking"}, auth.Subject.FlightServiceEnable},
	{templates.NavItem{Key: "nav.trains", Href: "/train/booking"}, auth.Subject.TrainServiceEnable},
	{templates.NavItem{Key: "nav.myBookings", Href: "/flight/orders"}, auth.Subject.CanAccessTicket},
	{templates.NavItem{Key: "nav.wallet", Href: "/bills/wallet"}, auth.Subject.CanAccessFinance},
	{templates.NavItem{Key: "nav.agencyManagement", Href: "/agency-manager"}, auth.Subject.CanShowAgencyManager},
}

// userMenu is the user menu of spec §2; Log out is a form of its own.
var userMenu = []menuEntry{
	{templates.NavItem{Key: "nav.userManagement", Href: "/users"}, isSuperUser},
	{templates.NavItem{Key: "nav.userLog", Href: "/user-log"}, isSuperUser},
	{templates.NavItem{Key: "nav.companyProfile", Href: "/company"}, isSuperUser},
	{templates.NavItem{Key: "nav.account", Href: "/profile"}, anyone},
}

// topNavFor is the top bar for v: nothing for a visitor, and for a user the
// entries their role and company allow.
func topNavFor(v viewer) []templates.NavItem {
	if !v.LoggedIn {
		return nil
	}
	return pick(topNav, v)
}

func userMenuFor(v viewer) []templates.NavItem {
	if !v.LoggedIn {
		return nil
	}
	return pick(userMenu, v)
}

func pick(entries []menuEntry, v viewer) []templates.NavItem {
	var out []templates.NavItem
	for _, e := range entries {
		if e.show(v.Principal.Subject) {
			out = append(out, e.NavItem)
		}
	}
	return out
}

// sideNavFor is a layout's section menu without the pages the guard would
// refuse v.
func sideNavFor(layout string, v viewer) []templates.NavItem {
	var out []templates.NavItem
	for _, it := range sideNavs[layout] {
		if allowed(it.Href, v) {
			out = append(out, it)
		}
	}
	return out
}

// sideNavs are the section menus of the layouts that have one.
var sideNavs = map[string][]templates.NavItem{
	templates.LayoutOrder: {
		{Key: "nav.flightOrders", Href: "/flight/orders"},
		{Key: "nav.flightDisruptions", Href: "/flight/orders/voyage"},
		{Key: "nav.groupOrders", Href: "/flight/group/order"},
		{Key: "nav.trainOrders", Href: "/train/orders"},
	},
	templates.LayoutBill: {
		{Key: "nav.walletEntries", Href: "/bills/wallet"},
		{Key: "nav.transactions", Href: "/bills/transactions"},
		{Key: "nav.statements", Href: "/bills/statements"},
	},
	templates.LayoutAgencyManager: {
		{Key: "nav.agencies", Href: "/agency-manager"},
		{Key: "nav.subStatements", Href: "/agency-manager/statements"},
	},
}
