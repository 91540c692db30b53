package tui

import (
	"context"
	"errors"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
)

// keyState is the selected agency's API keys, revoked ones too, with their
// roles; `n` makes one with the roles given, `x` revokes the selected one.
type keyState = agencyList[auth.APIKey]

// newKeyState lists every key of the agency on one page: an agency has a
// handful, and the backend answers them all at once.
func newKeyState() keyState {
	return newAgencyList(keysScreen, "API keys", "API key",
		func(k auth.APIKey) int64 { return k.ID },
		func(ctx context.Context, b admin.Backend, agencyID int64, _, _ int) ([]auth.APIKey, int, error) {
			keys, err := b.APIKeys(ctx, agencyID)
			return keys, len(keys), err
		})
}

func (m *Model) keysKey(msg tea.KeyMsg) tea.Cmd {
	cmd, _ := agencyKey(m, &m.ks.list, msg, newKeyAction, m.keys.Revoke, "keys.noneSelected", revokeAction)
	return cmd
}

// parseRoles reads a comma- or space-separated list of roles.
func parseRoles(s string) ([]string, error) {
	var out []string
	for _, r := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		i := slices.IndexFunc(auth.Roles, func(x string) bool { return strings.EqualFold(x, r) })
		if i < 0 {
			return nil, errors.New(r)
		}
		if !slices.Contains(out, auth.Roles[i]) {
			out = append(out, auth.Roles[i])
		}
	}
	return out, nil
}

// newKeyAction makes an API key of agency a with the roles given. The key
// is shown once: only its hash is kept.
func newKeyAction(m *Model, a agency.Summary) *action {
	t := m.t
	b := m.b
	name := newField(t("keys.name"), t("keys.nameHint"), false)
	roles := newField(t("keys.roles"), strings.Join(auth.Roles, ", "), false)
	roles.input.SetValue(auth.RoleOperator + ", " + auth.RoleFinance)
	parse := func(v string) ([]string, error) {
		rs, err := parseRoles(v)
		if err != nil {
			return nil, errors.New(t("keys.badRole", "role", err.Error(), "roles", strings.Join(auth.Roles, ", ")))
		}
		if len(rs) == 0 {
			return nil, errors.New(t("keys.noRole"))
		}
		return rs, nil
	}
	return &action{
		id:       nextID(),
		title:    t("keys.newTitle", "name", a.Name, "code", a.Code),
		question: t("keys.newQuestion"),
		fields:   []field{name, roles},
		check: func(_ context.Context, v []string) ([]string, error) {
			rs, err := parse(v[1])
			if err != nil {
				return nil, err
			}
			return []string{t("keys.newPlan", "name", v[0], "agency", a.Name), labelled(t("keys.roles"), m.roles(rs))}, nil
		},
		post: func(ctx context.Context, v []string) ([]string, string, error) {
			rs, err := parse(v[1])
			if err != nil {
				return nil, "", err
			}
			k, err := b.CreateAPIKey(ctx, a.ID, v[0], rs)
			if err != nil {
				return nil, "", err
			}
			return []string{t("keys.shownOnce", "name", k.Name, "agency", a.Name), "", k.Key, ""},
				t("keys.created", "name", k.Name, "prefix", k.Prefix, "agency", a.Name), nil
		},
	}
}

// revokeAction revokes key k of agency a: requests with it are refused
// from then on. A key revoked already is said instead (nil).
func revokeAction(m *Model, a agency.Summary, k auth.APIKey) *action {
	t := m.t
	b := m.b
	if k.RevokedAt != nil {
		m.status = t("keys.alreadyRevoked", "name", k.Name)
		return nil
	}
	return &action{
		id:       nextID(),
		title:    t("keys.revokeTitle", "name", k.Name, "prefix", k.Prefix),
		question: t("keys.revokeQuestion"),
		check: func(context.Context, []string) ([]string, error) {
			return []string{t("keys.revokePlan", "name", k.Name, "prefix", k.Prefix, "agency", a.Name)}, nil
		},
		post: func(ctx context.Context, _ []string) ([]string, string, error) {
			if err := b.RevokeAPIKey(ctx, a.ID, k.ID); err != nil {
				return nil, "", err
			}
			done := t("keys.revoked", "name", k.Name, "prefix", k.Prefix)
			return []string{done}, done, nil
		},
	}
}

func (m *Model) keysView(w, h int) []string {
	l := &m.ks.list
	info := ""
	if l.loaded {
		info = m.t("keys.count", "count", l.total)
	}
	return agencyScreen(m, l, w, h, info, "keys", []string{"name", "prefix", "roles", "state"},
		func(w int) columns { return layout(w, column{min: 8}, column{w: 10}, column{w: 20}, column{w: 10}) },
		func(k auth.APIKey) []string { return []string{k.Name, k.Prefix, m.roles(k.Roles), m.keyState(k)} },
		m.keyDetailView)
}

func (m *Model) keyState(k auth.APIKey) string {
	if k.RevokedAt != nil {
		return m.t("keys.stateRevoked")
	}
	return m.t("keys.stateActive")
}

func (m *Model) keyDetailView(w, h int) []string {
	k, ok := m.ks.list.current()
	if _, scoped := m.scopeAgency(); !ok || !scoped {
		return nil
	}
	used := m.t("keys.never")
	if k.LastUsedAt != nil {
		used = utcText(*k.LastUsedAt)
	}
	revoked := "—"
	if k.RevokedAt != nil {
		revoked = utcText(*k.RevokedAt)
	}
	lines := []string{
		m.rule(k.Name+" · "+k.Prefix, w),
		m.field2("keys.roles", m.roles(k.Roles), w),
		m.field2("keys.state", m.keyState(k), w),
		m.field2("keys.createdAt", utcText(k.CreatedAt), w),
		m.field2("keys.lastUsed", used, w),
		m.field2("keys.revokedAt", revoked, w),
		"",
		m.st.Muted.Render(fit(m.t("keys.keys"), w)),
	}
	return clip(lines, h)
}
