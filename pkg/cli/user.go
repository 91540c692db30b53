package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
)

func (r *Root) userCmd() *cobra.Command {
	return adminNoun("user", "The users of an agency, as that agency's super admin",
		r.userListCmd(), r.userCreateCmd(), r.userDisableCmd())
}

// userRow is a user in the machine formats.
type userRow struct {
	ID           int64    `json:"id"`
	AgencyID     int64    `json:"agencyId"`
	Username     string   `json:"username"`
	Email        string   `json:"email"`
	Nickname     string   `json:"nickname"`
	Roles        []string `json:"roles"`
	Status       string   `json:"status"`
	IsSuperAdmin bool     `json:"isSuperAdmin"`
	CreatedAt    string   `json:"createdAt"`
}

func toUserRow(u auth.User) userRow {
	return userRow{ID: u.ID, AgencyID: u.AgencyID, Username: u.Username, Email: u.Email, Nickname: u.Nickname, Roles: u.Roles(),
		Status: u.Status, IsSuperAdmin: u.IsSuperAdmin, CreatedAt: fmtTime(u.CreatedAt)}
}

func userView(u auth.User) view {
	row := toUserRow(u)
	return view{Data: row, KeyValue: true, Rows: [][]string{
		{"ID", fmtID(row.ID)}, {"Agency", fmtID(row.AgencyID)}, {"Username", row.Username}, {"Email", row.Email},
		{"Nickname", row.Nickname}, {"Roles", strings.Join(row.Roles, ",")}, {"Status", row.Status},
		{"Super admin", yesNo(row.IsSuperAdmin)}}}
}

// agencyActor is who the user commands act as: the provider, checked to
// manage the agency, then acting inside it as its super admin (the user
// service only manages the actor's own agency's users). The user log names
// the operating system user.
func agencyActor(ctx context.Context, a *app.App, provider auth.Principal, agencyID int64) (auth.Principal, error) {
	ag, err := a.AgencyAdmin.Managed(ctx, provider, agencyID)
	if err != nil {
		return auth.Principal{}, err
	}
	supers, _, err := a.Auth.ListUsers(ctx, agencyID, auth.UserFilter{Role: auth.RoleSuperUser, PageSize: auth.MaxPageSize})
	if err != nil {
		return auth.Principal{}, err
	}
	var userID int64
	for _, u := range supers {
		if u.IsSuperAdmin {
			userID = u.ID
			break
		}
	}
	if userID == 0 {
		return auth.Principal{}, fault.NotFound("")
	}
	return auth.Principal{UserID: userID, AgencyID: agencyID, Username: provider.Username,
		Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: ag.ProxyLevel, Common: ag.Common()}}, nil
}

func (r *Root) userListCmd() *cobra.Command {
	var id int64
	var f auth.UserFilter
	cmd := &cobra.Command{
		Use:   "list --agency ID [--keyword K] [--status S] [--role R] [--page N] [--page-size N]",
		Short: "List an agency's users",
		Args:  args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireAgency(id); err != nil {
				return err
			}
			a, actor, err := r.openAsProvider(cmd)
			if err != nil {
				return err
			}
			defer a.Close()
			if _, err := a.AgencyAdmin.Managed(cmd.Context(), actor, id); err != nil {
				return describe(err)
			}
			f.Page, f.PageSize = auth.ClampPage(f.Page, f.PageSize)
			users, total, err := a.Auth.ListUsers(cmd.Context(), id, f)
			if err != nil {
				return describe(err)
			}
			rows := []userRow{}
			v := view{Headers: []string{"id", "username", "email", "nickname", "roles", "status", "super admin"}}
			for _, u := range users {
				row := toUserRow(u)
				rows = append(rows, row)
				v.Rows = append(v.Rows, []string{fmtID(row.ID), row.Username, row.Email, row.Nickname, strings.Join(row.Roles, ","), row.Status, yesNo(row.IsSuperAdmin)})
			}
			v.Data = struct {
				Items    []userRow `json:"items"`
				Total    int       `json:"total"`
				Page     int       `json:"page"`
				PageSize int       `json:"pageSize"`
			}{rows, total, f.Page, f.PageSize}
			if err := render(cmd, v); err != nil {
				return err
			}
			if shown := (f.Page-1)*f.PageSize + len(users); shown < total {
				note(cmd, "page %d, %d of %d users; next: --page %d", f.Page, len(users), total, f.Page+1)
			}
			return nil
		},
	}
	cmd.Flags().Int64Var(&id, "agency", 0, "agency id (required)")
	cmd.Flags().StringVar(&f.Keyword, "keyword", "", "match username, nickname or email")
	cmd.Flags().StringVar(&f.Status, "status", "", "active, inactive or testing")
	cmd.Flags().StringVar(&f.Role, "role", "", "operator, finance or SuperUser")
	cmd.Flags().IntVar(&f.Page, "page", 1, "page, from 1")
	cmd.Flags().IntVar(&f.PageSize, "page-size", auth.DefaultPageSize, "users per page (at most 100)")
	_ = cmd.MarkFlagRequired("agency")
	return cmd
}

func (r *Root) userCreateCmd() *cobra.Command {
	var id int64
	var n auth.NewUser
	cmd := &cobra.Command{
		Use:   "create --agency ID --username U --email E --role R [--role R] [--password P]",
		Short: "Create a user in an agency (without --password one is generated and printed once)",
		Args:  args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireAgency(id); err != nil {
				return err
			}
			a, provider, err := r.openAsProvider(cmd)
			if err != nil {
				return err
			}
			defer a.Close()
			actor, err := agencyActor(cmd.Context(), a, provider, id)
			if err != nil {
				return describe(err)
			}
			generated := n.Password == ""
			if generated {
				n.Password = newPassword()
			}
			u, err := a.Auth.CreateUserIn(cmd.Context(), actor, n, auth.Meta{IP: "cli"})
			if err != nil {
				return describe(err)
			}
			if err := render(cmd, userView(u)); err != nil {
				return err
			}
			if generated {
				note(cmd, "password of %s: %s (shown only now)", u.Username, n.Password)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.Int64Var(&id, "agency", 0, "agency id (required)")
	fl.StringVar(&n.Username, "username", "", "login name (required)")
	fl.StringVar(&n.Email, "email", "", "email (required)")
	fl.StringVar(&n.Nickname, "nickname", "", "display name")
	fl.StringVar(&n.Mobile, "mobile", "", "mobile number")
	fl.StringVar(&n.Status, "status", "", "active (default) or testing")
	fl.StringSliceVar(&n.Roles, "role", nil, "role, repeatable: operator, finance, SuperUser (required)")
	fl.StringVar(&n.Password, "password", "", "password, 6–15 characters (default: generate one)")
	for _, f := range []string{"agency", "username", "email", "role"} {
		_ = cmd.MarkFlagRequired(f)
	}
	return cmd
}

func (r *Root) userDisableCmd() *cobra.Command {
	var id int64
	cmd := &cobra.Command{
		Use:   "disable --agency ID USERID",
		Short: "Make a user inactive and end their sessions (not the agency's super admin)",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if err := requireAgency(id); err != nil {
				return err
			}
			userID, err := parseID("user id", argv[0])
			if err != nil {
				return err
			}
			a, provider, err := r.openAsProvider(cmd)
			if err != nil {
				return err
			}
			defer a.Close()
			actor, err := agencyActor(cmd.Context(), a, provider, id)
			if err != nil {
				return describe(err)
			}
			u, err := a.Auth.DeactivateUser(cmd.Context(), actor, userID, auth.Meta{IP: "cli"})
			if err != nil {
				return describe(err)
			}
			return render(cmd, userView(u))
		},
	}
	cmd.Flags().Int64Var(&id, "agency", 0, "agency id (required)")
	_ = cmd.MarkFlagRequired("agency")
	return cmd
}
