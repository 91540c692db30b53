package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/siteinfo"
)

func (r *Root) ratesCmd() *cobra.Command {
	return adminNoun("rates", "Exchange rates against the default currency", r.ratesSetCmd(), r.ratesListCmd())
}

func rateView(rates []siteinfo.Rate) view {
	v := view{Data: rates, Headers: []string{"currency", "rate", "base", "source", "since"}}
	for _, x := range rates {
		v.Rows = append(v.Rows, []string{x.Currency, x.Rate, x.Base, x.Source, fmtTime(x.CreatedAt)})
	}
	return v
}

func (r *Root) ratesSetCmd() *cobra.Command {
	var g guard
	cmd := r.verb("set CURRENCY RATE [--dry-run] [--yes]", "Set what one unit of a currency is worth in the default currency; the previous rate stays as history", cobra.ExactArgs(2),
		func(cmd *cobra.Command, argv []string, b admin.Backend) error {
			// The dry run makes the checks the real run does.
			cur, d, err := siteinfo.ParseRate(argv[0], argv[1])
			if err != nil {
				return err
			}
			rates, err := b.Rates(cmd.Context())
			if err != nil {
				return err
			}
			was := "none"
			if i := slices.IndexFunc(rates, func(x siteinfo.Rate) bool { return x.Currency == cur }); i >= 0 {
				was = rates[i].Rate
			}
			plan := view{Data: map[string]any{"dryRun": g.dryRun, "currency": cur, "rate": was, "newRate": d.String()}, KeyValue: true,
				Rows: [][]string{{"Currency", cur}, {"Rate", was + " -> " + d.String()}}}
			if ok, err := g.proceed(cmd, plan, fmt.Sprintf("Set the rate of %s from %s to %s? Prices and conversions use it from now on", cur, was, d.String())); !ok {
				return err
			}
			h, err := b.SetRate(cmd.Context(), argv[0], argv[1])
			if err != nil {
				return err
			}
			// The rate just set: the answer carries its recent history.
			h = h[:min(len(h), 1)]
			return render(cmd, rateView(h))
		})
	g.flags(cmd)
	return cmd
}

func (r *Root) ratesListCmd() *cobra.Command {
	var cur string
	var limit int
	cmd := r.verb("list [--currency CUR]", "List the rates in force; with --currency, that currency's history, newest first", cobra.NoArgs,
		func(cmd *cobra.Command, _ []string, b admin.Backend) error {
			if strings.TrimSpace(cur) == "" {
				return renderAs(cmd, rateView)(b.Rates(cmd.Context()))
			}
			if limit < 1 || limit > 100 {
				return usageErr(errorf("--limit must be 1–100, got %d", limit))
			}
			return renderAs(cmd, rateView)(b.RateHistory(cmd.Context(), cur, limit))
		})
	cmd.Flags().StringVar(&cur, "currency", "", "show this currency's history")
	cmd.Flags().IntVar(&limit, "limit", 100, "history entries to show")
	return cmd
}
