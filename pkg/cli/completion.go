package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/flight"
)

// flagValues are the values the shell completes for flags of these names.
var flagValues = map[string][]string{
	"output": {FormatTable, FormatJSON, FormatYAML, FormatCSV},
	"format": {"csv", "xlsx", "pdf"},
	"lang":   {"en", "zh-cn", "zh-tw"},
}

// valuesKey is the flag annotation naming the values a flag takes (set
// with flagChoices): the shell completes them, and a test holds every
// command's examples to them.
const valuesKey = "voyage_values"

// flagChoices declares the values flag name of cmd takes.
func flagChoices[S ~string](cmd *cobra.Command, name string, values []S) {
	vs := make([]string, len(values))
	for i, v := range values {
		vs[i] = string(v)
	}
	_ = cmd.Flags().SetAnnotation(name, valuesKey, vs)
}

// choicesOf are the values a flag takes: its declared choices or those
// of its name; nil when any value goes (declared as no choices: a flag
// that shares a name with another, such as a file's --output).
func choicesOf(f *pflag.Flag) []string {
	if vs, ok := f.Annotations[valuesKey]; ok {
		if len(vs) == 0 {
			return nil
		}
		return vs
	}
	return flagValues[f.Name]
}

// idArgs are the commands whose first argument is an agency or order id.
var idArgs = map[string]string{
	"voyage agency show": "agency", "voyage agency update": "agency", "voyage agency block": "agency", "voyage agency unblock": "agency",
	"voyage orders show": "order", "voyage orders review": "order",
}

// addCompletions registers the shell completion of flag values (--output,
// --format, --lang), of --agency and of agency and order id arguments,
// the ids read from the command's backend (--db or --server) as the shell
// asks.
func (r *Root) addCompletions(cmd *cobra.Command) {
	done := map[*pflag.Flag]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, fs := range []*pflag.FlagSet{c.LocalNonPersistentFlags(), c.PersistentFlags()} {
			fs.VisitAll(func(f *pflag.Flag) {
				if done[f] {
					return
				}
				var fn cobra.CompletionFunc
				if _, any := f.Annotations[valuesKey]; any && choicesOf(f) == nil {
					return // a file or free text: the shell's own completion
				}
				if vs := choicesOf(f); vs != nil {
					fn = cobra.FixedCompletions(vs, cobra.ShellCompDirectiveNoFileComp)
				} else if f.Name == "agency" {
					fn = r.completeIDs("agency")
				}
				if fn != nil && c.RegisterFlagCompletionFunc(f.Name, fn) == nil {
					done[f] = true
				}
			})
		}
		if what, ok := idArgs[c.CommandPath()]; ok && c.ValidArgsFunction == nil {
			complete := r.completeIDs(what)
			c.ValidArgsFunction = func(c *cobra.Command, a []string, to string) ([]string, cobra.ShellCompDirective) {
				if len(a) > 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return complete(c, a, to)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(cmd)
}

// completeIDs lists agency or order ids with their names as completions.
func (r *Root) completeIDs(what string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, to string) ([]string, cobra.ShellCompDirective) {
		if cmd.Context() == nil {
			cmd.SetContext(context.Background())
		}
		b, err := r.backend(cmd)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveError
		}
		defer b.Close()
		out, err := idCompletions(cmd.Context(), b, what)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveError
		}
		var match []string
		for _, c := range out {
			if strings.HasPrefix(c, to) {
				match = append(match, c)
			}
		}
		return match, cobra.ShellCompDirectiveNoFileComp
	}
}

// idCompletions are "id<TAB>description" lines: the first 100 agencies, or
// the 100 newest orders.
func idCompletions(ctx context.Context, b admin.Backend, what string) ([]string, error) {
	var out []string
	if what == "order" {
		page, err := b.Orders(ctx, flight.Filter{Filter: booking.Filter{Page: 1, PageSize: 100}})
		if err != nil {
			return nil, err
		}
		for _, o := range page.Items {
			out = append(out, fmt.Sprintf("%d\t%s %s", o.ID, o.BookingNumber, o.Status))
		}
		return out, nil
	}
	page, err := b.Agencies(ctx, agency.ListFilter{Page: 1, PageSize: 100})
	if err != nil {
		return nil, err
	}
	for _, a := range page.Items {
		out = append(out, fmt.Sprintf("%d\t%s (%s)", a.ID, a.Name, a.Code))
	}
	return out, nil
}
