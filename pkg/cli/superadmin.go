package cli

import (
	"crypto/rand"
	"fmt"
	"os/user"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
)

func (r *Root) superadminCmd() *cobra.Command {
	var agencyID int64
	var password string
	reset := r.agencyVerb("reset-password --agency ID [--password P]",
		"Reset the super admin password of an agency, as the provider (prints a generated password when none is given)", &agencyID,
		func(cmd *cobra.Command, b admin.Backend) error {
			generated := password == ""
			if generated {
				password = newPassword()
			}
			if err := b.ResetSuperAdminPassword(cmd.Context(), agencyID, password); err != nil {
				return err
			}
			if f, _ := outputFormat(cmd); f != FormatTable {
				data := map[string]any{"agencyId": agencyID, "reset": true}
				rows := [][]string{{"agencyId", fmtID(agencyID)}, {"reset", "yes"}}
				if generated {
					data["password"] = password
					rows = append(rows, []string{"password", password})
				}
				return render(cmd, view{Data: data, Rows: rows, KeyValue: true})
			}
			if generated {
				fmt.Fprintf(cmd.OutOrStdout(), "super admin password of agency %d reset to: %s\n", agencyID, password)
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "super admin password of agency %d reset\n", agencyID)
			}
			return nil
		})
	reset.Flags().StringVar(&password, "password", "", "the new password, 6–15 characters, not a common one (default: generate one)")
	return adminNoun("superadmin", "An agency's super admin account", reset)
}

func newPassword() string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

func osUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "unknown"
}
