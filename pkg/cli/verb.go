package cli

import (
	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
)

// The admin verbs are built alike: a use line, a short help, positional
// arguments checked as usage errors, and a run on the command's backend.

// verb is an admin verb that runs on the command's backend.
func (r *Root) verb(use, short string, pos cobra.PositionalArgs, run func(cmd *cobra.Command, argv []string, b admin.Backend) error) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  args(pos),
		RunE: func(cmd *cobra.Command, argv []string) error {
			return r.withBackend(cmd, func(b admin.Backend) error { return run(cmd, argv, b) })
		},
	}
}

// idVerb is an admin verb on the one record its ID argument names (what
// names it in the error when it is not an id).
func (r *Root) idVerb(use, short, what string, run func(cmd *cobra.Command, b admin.Backend, id int64) error) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			return r.withID(cmd, what, argv[0], func(b admin.Backend, id int64) error { return run(cmd, b, id) })
		},
	}
}

// agencyItemVerb is an admin verb on one record of one agency: the agency
// its required --agency flag (id) names, the record its ID argument (what
// names it in the error when it is not an id).
func (r *Root) agencyItemVerb(use, short, what string, id *int64, run func(cmd *cobra.Command, b admin.Backend, itemID int64) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if err := requireAgency(*id); err != nil {
				return err
			}
			return r.withID(cmd, what, argv[0], func(b admin.Backend, itemID int64) error { return run(cmd, b, itemID) })
		},
	}
	agencyFlag(cmd, id)
	return cmd
}

// agencyVerb is an admin verb on one agency's data, the one its required
// --agency flag (id) names.
func (r *Root) agencyVerb(use, short string, id *int64, run func(cmd *cobra.Command, b admin.Backend) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return r.withAgency(cmd, *id, func(b admin.Backend) error { return run(cmd, b) })
		},
	}
	agencyFlag(cmd, id)
	return cmd
}

// withID runs fn on the command's backend with the id argument s (what
// names it in the error when it is not one).
func (r *Root) withID(cmd *cobra.Command, what, s string, fn func(b admin.Backend, id int64) error) error {
	id, err := parseID(what, s)
	if err != nil {
		return err
	}
	return r.withBackend(cmd, func(b admin.Backend) error { return fn(b, id) })
}

// withAgency runs fn on the command's backend once --agency (id) is usable.
func (r *Root) withAgency(cmd *cobra.Command, id int64, fn func(b admin.Backend) error) error {
	if err := requireAgency(id); err != nil {
		return err
	}
	return r.withBackend(cmd, fn)
}

// agencyFlag is a command's required --agency ID, checked by withAgency.
func agencyFlag(cmd *cobra.Command, id *int64) {
	cmd.Flags().Int64Var(id, "agency", 0, "agency id (required)")
	_ = cmd.MarkFlagRequired("agency")
}
