package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
)

func (r *Root) apikeyCmd() *cobra.Command {
	return adminNoun("apikey", "An agency's integration API keys, as the provider",
		r.apikeyCreateCmd(), r.apikeyListCmd(), r.apikeyRevokeCmd())
}

func (r *Root) apikeyCreateCmd() *cobra.Command {
	var id int64
	var name string
	var roles []string
	var provider bool
	cmd := &cobra.Command{
		Use:   "create (--agency ID | --provider) [--name N] [--role operator --role finance]",
		Short: "Create an API key for an agency; the key is printed this once only",
		Long: "Create an API key for an agency; the key is printed this once only.\n" +
			"--provider makes a key of the provider itself, which reaches every agency: the\n" +
			"key the admin commands take with --server --api-key (give it --role SuperUser\n" +
			"to set exchange rates and reset passwords). Only in-process, on the server's\n" +
			"database.",
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if provider == (id != 0) {
				return usageErr(errorf("give either --agency ID or --provider"))
			}
			var k auth.NewAPIKey
			if provider {
				l, err := r.local(cmd)
				if err != nil {
					return err
				}
				defer l.Close()
				if k, err = l.CreateProviderAPIKey(cmd.Context(), name, roles); err != nil {
					return describe(err)
				}
			} else {
				if err := requireAgency(id); err != nil {
					return err
				}
				b, err := r.backend(cmd)
				if err != nil {
					return err
				}
				defer b.Close()
				if k, err = b.CreateAPIKey(cmd.Context(), id, name, roles); err != nil {
					return describe(err)
				}
			}
			if err := render(cmd, view{Data: k, KeyValue: true, Rows: [][]string{
				{"ID", fmtID(k.ID)}, {"Agency", fmtID(k.AgencyID)}, {"Name", k.Name}, {"Prefix", k.Prefix},
				{"Roles", strings.Join(k.Roles, ",")}, {"Key", k.Key}}}); err != nil {
				return err
			}
			note(cmd, "The key is shown only now: store it safely, it cannot be shown again.")
			return nil
		},
	}
	cmd.Flags().Int64Var(&id, "agency", 0, "agency id")
	cmd.Flags().BoolVar(&provider, "provider", false, "a key of the provider itself (in-process only)")
	cmd.Flags().StringVar(&name, "name", "", "a name to recognise the key by")
	cmd.Flags().StringSliceVar(&roles, "role", nil, "role of the key, repeatable: operator, finance, SuperUser (default operator and finance)")
	flagChoices(cmd, "role", []string{"operator", "finance", "SuperUser"})
	return cmd
}

func (r *Root) apikeyListCmd() *cobra.Command {
	var id int64
	return r.agencyVerb("list --agency ID", "List an agency's API keys (their prefixes, never the keys), newest first", &id,
		func(cmd *cobra.Command, b admin.Backend) error {
			keys, err := b.APIKeys(cmd.Context(), id)
			if err != nil {
				return err
			}
			if keys == nil {
				keys = []auth.APIKey{}
			}
			v := view{Data: keys, Headers: []string{"id", "name", "prefix", "roles", "created", "last used", "revoked"}}
			for _, k := range keys {
				v.Rows = append(v.Rows, []string{fmtID(k.ID), k.Name, k.Prefix, strings.Join(k.Roles, ","), fmtTime(k.CreatedAt),
					fmtTimePtr(k.LastUsedAt), fmtTimePtr(k.RevokedAt)})
			}
			return render(cmd, v)
		})
}

func (r *Root) apikeyRevokeCmd() *cobra.Command {
	var id int64
	var g guard
	cmd := r.agencyItemVerb("revoke --agency ID KEYID [--dry-run] [--yes]", "Revoke an agency's API key: calls with it are refused at once", "key id", &id,
		func(cmd *cobra.Command, b admin.Backend, keyID int64) error {
			keys, err := b.APIKeys(cmd.Context(), id)
			if err != nil {
				return err
			}
			i := slices.IndexFunc(keys, func(k auth.APIKey) bool { return k.ID == keyID && k.RevokedAt == nil })
			if i < 0 {
				return fault.NotFound("")
			}
			k := keys[i]
			plan := view{Data: map[string]any{"dryRun": g.dryRun, "id": k.ID, "agencyId": id, "name": k.Name, "prefix": k.Prefix}, KeyValue: true,
				Rows: [][]string{{"Key", fmtID(k.ID)}, {"Name", k.Name}, {"Prefix", k.Prefix}, {"Agency", fmtID(id)}, {"Last used", fmtTimePtr(k.LastUsedAt)}}}
			if ok, err := g.proceed(cmd, plan, fmt.Sprintf("Revoke API key %d (%s, %s…) of agency %d? Calls with it are refused at once", k.ID, k.Name, k.Prefix, id)); !ok {
				return err
			}
			if err := b.RevokeAPIKey(cmd.Context(), id, keyID); err != nil {
				return err
			}
			return render(cmd, view{Data: map[string]any{"id": keyID, "agencyId": id, "revoked": true}, KeyValue: true,
				Rows: [][]string{{"Key", fmtID(keyID)}, {"Agency", fmtID(id)}, {"Revoked", "yes"}}})
		})
	g.flags(cmd)
	return cmd
}
