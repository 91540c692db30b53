package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

func (r *Root) apikeyCmd() *cobra.Command {
	return adminNoun("apikey", "An agency's integration API keys, as the provider",
		r.apikeyCreateCmd(), r.apikeyListCmd(), r.apikeyRevokeCmd())
}

func (r *Root) apikeyCreateCmd() *cobra.Command {
	var id int64
	var name string
	var roles []string
	cmd := &cobra.Command{
		Use:   "create --agency ID [--name N] [--role operator --role finance]",
		Short: "Create an API key for an agency; the key is printed this once only",
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
			k, err := a.Auth.CreateAPIKey(cmd.Context(), id, name, roles, 0)
			if err != nil {
				return describe(err)
			}
			data := struct {
				ID     int64    `json:"id"`
				Agency int64    `json:"agencyId"`
				Name   string   `json:"name"`
				Prefix string   `json:"prefix"`
				Roles  []string `json:"roles"`
				Key    string   `json:"key"`
			}{k.ID, k.AgencyID, k.Name, k.Prefix, k.Roles(), k.Key}
			if err := render(cmd, view{Data: data, KeyValue: true, Rows: [][]string{
				{"ID", fmtID(k.ID)}, {"Agency", fmtID(k.AgencyID)}, {"Name", k.Name}, {"Prefix", k.Prefix},
				{"Roles", strings.Join(k.Roles(), ",")}, {"Key", k.Key}}}); err != nil {
				return err
			}
			note(cmd, "The key is shown only now: store it safely, it cannot be shown again.")
			return nil
		},
	}
	cmd.Flags().Int64Var(&id, "agency", 0, "agency id (required)")
	cmd.Flags().StringVar(&name, "name", "", "a name to recognise the key by")
	cmd.Flags().StringSliceVar(&roles, "role", nil, "role of the key, repeatable: operator, finance, SuperUser (default operator and finance)")
	_ = cmd.MarkFlagRequired("agency")
	return cmd
}

// apiKeyRow is a listed key in the machine formats.
type apiKeyRow struct {
	ID         int64    `json:"id"`
	Name       string   `json:"name"`
	Prefix     string   `json:"prefix"`
	Roles      []string `json:"roles"`
	CreatedAt  string   `json:"createdAt"`
	LastUsedAt string   `json:"lastUsedAt,omitempty"`
	RevokedAt  string   `json:"revokedAt,omitempty"`
}

func (r *Root) apikeyListCmd() *cobra.Command {
	var id int64
	cmd := &cobra.Command{
		Use:   "list --agency ID",
		Short: "List an agency's API keys (their prefixes, never the keys), newest first",
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
			keys, err := a.Auth.APIKeys(cmd.Context(), id)
			if err != nil {
				return describe(err)
			}
			data := []apiKeyRow{}
			v := view{Headers: []string{"id", "name", "prefix", "roles", "created", "last used", "revoked"}}
			for _, k := range keys {
				row := apiKeyRow{ID: k.ID, Name: k.Name, Prefix: k.Prefix, Roles: k.Roles(), CreatedAt: fmtTime(k.CreatedAt),
					LastUsedAt: fmtTimePtr(k.LastUsedAt), RevokedAt: fmtTimePtr(k.RevokedAt)}
				data = append(data, row)
				v.Rows = append(v.Rows, []string{fmtID(row.ID), row.Name, row.Prefix, strings.Join(row.Roles, ","), row.CreatedAt, row.LastUsedAt, row.RevokedAt})
			}
			v.Data = data
			return render(cmd, v)
		},
	}
	cmd.Flags().Int64Var(&id, "agency", 0, "agency id (required)")
	_ = cmd.MarkFlagRequired("agency")
	return cmd
}

func (r *Root) apikeyRevokeCmd() *cobra.Command {
	var id int64
	cmd := &cobra.Command{
		Use:   "revoke --agency ID KEYID",
		Short: "Revoke an agency's API key at once",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if err := requireAgency(id); err != nil {
				return err
			}
			keyID, err := parseID("key id", argv[0])
			if err != nil {
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
			if err := a.Auth.RevokeAPIKey(cmd.Context(), id, keyID); err != nil {
				return describe(err)
			}
			return render(cmd, view{Data: map[string]any{"id": keyID, "agencyId": id, "revoked": true}, KeyValue: true,
				Rows: [][]string{{"Key", fmtID(keyID)}, {"Agency", fmtID(id)}, {"Revoked", "yes"}}})
		},
	}
	cmd.Flags().Int64Var(&id, "agency", 0, "agency id (required)")
	_ = cmd.MarkFlagRequired("agency")
	return cmd
}
