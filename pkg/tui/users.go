package tui

import (
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
)

// userState is the selected agency's users; `b` blocks one (inactive, its
// sessions end), `u` unblocks one, each behind a confirmation.
type userState = agencyList[admin.ManagedUser]

func newUserState() userState {
	return newAgencyList(usersScreen, "users", "user",
		func(u admin.ManagedUser) int64 { return u.ID },
		func(ctx context.Context, b admin.Backend, agencyID int64, page, size int) ([]admin.ManagedUser, int, error) {
			p, err := b.Users(ctx, agencyID, auth.UserFilter{Page: page, PageSize: size})
			return p.Items, p.Total, err
		})
}

func (m *Model) usersKey(msg tea.KeyMsg) tea.Cmd {
	if cmd, handled := m.us.list.key(m, msg); handled {
		return cmd
	}
	block, unblock := key.Matches(msg, m.keys.Block), key.Matches(msg, m.keys.Unblock)
	if !block && !unblock {
		return nil
	}
	a, ok := m.scopeAgency()
	u, found := m.us.list.current()
	if !ok || !found {
		m.status = m.t("users.noneSelected")
		return nil
	}
	switch {
	case block && u.Status == auth.StatusInactive:
		m.status = m.t("users.alreadyBlocked", "name", u.Username)
		return nil
	case unblock && u.Status != auth.StatusInactive:
		m.status = m.t("users.notBlocked", "name", u.Username)
		return nil
	}
	return m.openAction(userStatusAction(m, a, u, block))
}

// userStatusAction blocks (makes inactive) or unblocks user u of agency a.
func userStatusAction(m *Model, a agency.Summary, u admin.ManagedUser, block bool) *action {
	t := m.t
	b := m.b
	verb := "unblock"
	if block {
		verb = "block"
	}
	return &action{
		id:       nextID(),
		title:    t("users."+verb+"Title", "name", u.Username, "agency", a.Name),
		question: t("users." + verb + "Question"),
		check: func(context.Context, []string) ([]string, error) {
			return []string{t("users."+verb+"Plan", "name", u.Username, "agency", a.Name)}, nil
		},
		post: func(ctx context.Context, _ []string) ([]string, string, error) {
			var after admin.ManagedUser
			var err error
			if block {
				after, err = b.DisableUser(ctx, a.ID, u.ID)
			} else {
				after, err = b.EnableUser(ctx, a.ID, u.ID)
			}
			if err != nil {
				return nil, "", err
			}
			done := t("users."+verb+"Done", "name", after.Username, "status", t("users.status."+after.Status))
			return []string{done}, done, nil
		},
	}
}

func (m *Model) usersView(w, h int) []string {
	l := &m.us.list
	return agencyScreen(m, l, w, h, m.pageInfo(l.loaded, l.page, l.total, "users.count"), "users", []string{"username", "roles", "status", "created"},
		func(w int) columns { return layout(w, column{min: 8}, column{w: 20}, column{w: 10}, column{w: 11}) },
		func(u admin.ManagedUser) []string {
			return []string{u.Username, m.roles(u.Role), m.t("users.status." + u.Status), u.CreatedAt.UTC().Format("2006-01-02")}
		},
		m.userDetailView)
}

// roles are role names in the console's language.
func (m *Model) roles(rs []string) string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = m.t("role." + r)
	}
	return strings.Join(out, ", ")
}

func (m *Model) userDetailView(w, h int) []string {
	u, ok := m.us.list.current()
	if _, scoped := m.scopeAgency(); !ok || !scoped {
		return nil
	}
	super := m.t("no")
	if u.IsSuperAdmin {
		super = m.t("yes")
	}
	phone := strings.TrimSpace(u.AreaCode + " " + u.Mobile)
	lines := []string{
		m.rule(u.Username, w),
		m.field2("users.nickname", u.Nickname, w),
		m.field2("users.email", u.Email, w),
		m.field2("users.mobile", phone, w),
		m.field2("users.roles", m.roles(u.Role), w),
		m.field2("users.superAdmin", super, w),
		m.field2("users.status", m.t("users.status."+u.Status), w),
		m.field2("users.created", utcText(u.CreatedAt), w),
		"",
		m.st.Muted.Render(fit(m.t("users.keys"), w)),
	}
	return clip(lines, h)
}
