package cli

import (
	"slices"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/fault"
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
	return &cobra.Command{
		Use:   "set CURRENCY RATE",
		Short: "Set what one unit of a currency is worth in the default currency; the previous rate stays as history",
		Args:  args(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			cur := strings.ToUpper(strings.TrimSpace(argv[0]))
			if !slices.Contains(config.Currencies, cur) {
				return describe(fault.Validation(map[string]string{"currency": "ledger.error.currency"}))
			}
			rate, err := decimal.NewFromString(strings.TrimSpace(argv[1]))
			if err != nil || !rate.IsPositive() {
				return describe(fault.Validation(map[string]string{"rate": "ledger.error.rate"}))
			}
			a, actor, err := r.openAsProvider(cmd)
			if err != nil {
				return err
			}
			defer a.Close()
			if err := a.Site.SetRate(cmd.Context(), cur, rate, actor.Username); err != nil {
				return describe(err)
			}
			h, err := a.Site.RateHistory(cmd.Context(), cur, 1)
			if err != nil {
				return describe(err)
			}
			return render(cmd, rateView(h))
		},
	}
}

func (r *Root) ratesListCmd() *cobra.Command {
	var cur string
	var limit int
	cmd := &cobra.Command{
		Use:   "list [--currency CUR]",
		Short: "List the rates in force; with --currency, that currency's history, newest first",
		Args:  args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, _, err := r.openAsProvider(cmd)
			if err != nil {
				return err
			}
			defer a.Close()
			if cur = strings.ToUpper(strings.TrimSpace(cur)); cur == "" {
				rates, err := a.Site.Rates(cmd.Context())
				if err != nil {
					return describe(err)
				}
				return render(cmd, rateView(rates))
			}
			if limit < 1 {
				limit = 100
			}
			h, err := a.Site.RateHistory(cmd.Context(), cur, limit)
			if err != nil {
				return describe(err)
			}
			if len(h) == 0 {
				return describe(fault.NotFound("rate.error.missing"))
			}
			return render(cmd, rateView(h))
		},
	}
	cmd.Flags().StringVar(&cur, "currency", "", "show this currency's history")
	cmd.Flags().IntVar(&limit, "limit", 100, "history entries to show")
	return cmd
}
