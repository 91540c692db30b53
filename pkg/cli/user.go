package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
)

func (r *Root) userCmd() *cobra.Command {
	return adminNoun("user", "The users of an agency, as that agency's super admin",
		r.userListCmd(), r.userCreateCmd(), r.userDisableCmd())
}

func userView(u admin.ManagedUser) view {
	return view{Data: u, KeyValue: true, Rows: [][]string{
		{"ID", fmtID(u.ID)}, {"Agency", fmtID(u.AgencyID)}, {"Username", u.Username}, {"Email", u.Email},
		{"Nickname", u.Nickname}, {"Roles", strings.Join(u.Role, ",")}, {"Status", u.Status},
		{"Super admin", yesNo(u.IsSuperAdmin)}}}
}

func (r *Root) userListCmd() *cobra.Command {
	var id int64
	var f auth.UserFilter
	cmd := r.agencyVerb("list --agency ID [--keyword K] [--status S] [--role R] [--page N] [--page-size N]", "List an agency's users", &id,
		func(cmd *cobra.Command, b admin.Backend) error {
			return listAs(cmd, pageListed, "users",
				[]string{"id", "username", "email", "nickname", "roles", "status", "super admin"},
				func(u admin.ManagedUser) []string {
					return []string{fmtID(u.ID), u.Username, u.Email, u.Nickname, strings.Join(u.Role, ","), u.Status, yesNo(u.IsSuperAdmin)}
				})(b.Users(cmd.Context(), id, f))
		})
	cmd.Flags().StringVar(&f.Keyword, "keyword", "", "match username, nickname or email")
	cmd.Flags().StringVar(&f.Status, "status", "", "active, inactive or testing")
	flagChoices(cmd, "status", []string{"active", "inactive", "testing"})
	cmd.Flags().StringVar(&f.Role, "role", "", "operator, finance or SuperUser")
	flagChoices(cmd, "role", []string{"operator", "finance", "SuperUser"})
	pageFlags(cmd, &f.Page, &f.PageSize, auth.DefaultPageSize, "users")
	return cmd
}

func (r *Root) userCreateCmd() *cobra.Command {
	var id int64
	var n admin.CreateUserRequest
	cmd := r.agencyVerb("create --agency ID --username U --email E --role R [--role R] [--password P]",
		"Create a user in an agency (without --password one is generated and printed once)", &id,
		func(cmd *cobra.Command, b admin.Backend) error {
			generated := n.Password == ""
			if generated {
				n.Password = newPassword()
			}
			u, err := b.CreateUser(cmd.Context(), id, n)
			if err != nil {
				return err
			}
			if err := render(cmd, userView(u)); err != nil {
				return err
			}
			if generated {
				note(cmd, "password of %s: %s (shown only now)", u.Username, n.Password)
			}
			return nil
		})
	fl := cmd.Flags()
	fl.StringVar(&n.Username, "username", "", "login name (required)")
	fl.StringVar(&n.Email, "email", "", "email (required)")
	fl.StringVar(&n.Nickname, "nickname", "", "display name")
	fl.StringVar(&n.Mobile, "mobile", "", "mobile number")
	fl.StringVar(&n.Status, "status", "", "active (default) or testing")
	fl.StringSliceVar(&n.Role, "role", nil, "role, repeatable: operator, finance, SuperUser (required)")
	flagChoices(cmd, "role", []string{"operator", "finance", "SuperUser"})
	fl.StringVar(&n.Password, "password", "", "password, 6–15 characters, not a common one (default: generate one)")
	for _, f := range []string{"username", "email", "role"} {
		_ = cmd.MarkFlagRequired(f)
	}
	return cmd
}

func (r *Root) userDisableCmd() *cobra.Command {
	var id int64
	var g guard
	cmd := r.agencyItemVerb("disable --agency ID USERID [--dry-run] [--yes]", "Make a user inactive and end their sessions (not the agency's super admin)", "user id", &id,
		func(cmd *cobra.Command, b admin.Backend, userID int64) error {
			u, err := findUser(cmd.Context(), b, id, userID)
			if err != nil {
				return err
			}
			plan := view{Data: map[string]any{"dryRun": g.dryRun, "id": u.ID, "agencyId": id, "username": u.Username, "status": u.Status}, KeyValue: true,
				Rows: [][]string{{"User", fmtID(u.ID)}, {"Username", u.Username}, {"Agency", fmtID(id)}, {"Status", u.Status + " -> inactive"}}}
			if ok, err := g.proceed(cmd, plan, fmt.Sprintf("Disable user %s (%d) of agency %d and end their sessions?", u.Username, u.ID, id)); !ok {
				return err
			}
			return renderAs(cmd, userView)(b.DisableUser(cmd.Context(), id, userID))
		})
	g.flags(cmd)
	return cmd
}

// findUser is user userID of agency id, read page by page (an agency has a
// few hundred users at most); another agency's user is not found.
func findUser(ctx context.Context, b admin.Backend, id, userID int64) (admin.ManagedUser, error) {
	const size = 100
	for p := 1; ; p++ {
		list, err := b.Users(ctx, id, auth.UserFilter{Page: p, PageSize: size})
		if err != nil {
			return admin.ManagedUser{}, err
		}
		for _, u := range list.Items {
			if u.ID == userID {
				return u, nil
			}
		}
		if len(list.Items) < size {
			return admin.ManagedUser{}, fault.NotFound("")
		}
	}
}
