package cli

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/payment"
)

// paymentsReconcileCmd is `voyage payments reconcile`: finance's daily
// channel reconciliation (the portal's /bills/reconciliation) written as a
// file, in-process on the server's database.
func (r *Root) paymentsReconcileCmd() *cobra.Command {
	var date, format, out, lang string
	cmd := &cobra.Command{
		Use: "reconcile [--date YYYY-MM-DD] [--format csv|xlsx] [-o FILE]",
		Short: "Write a day's channel reconciliation: every channel payment and refund of the day against its ledger entry, " +
			"with fees, differences flagged and listed first (at most 10,000 rows)",
		Example: "  # yesterday on the provider's clock, as CSV in the current folder\n  voyage payments reconcile\n\n" +
			"  # 2 December as an Excel workbook in Traditional Chinese\n" +
			"  voyage payments reconcile --date 2026-12-02 --format xlsx --lang zh-tw -o december-2.xlsx\n\n" +
			"  # to standard output, for a pipe\n  voyage payments reconcile --date 2026-12-02 -o -",
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(docs.ReconciliationFormats, format) {
				return usageErr(fmt.Errorf("--format must be csv or xlsx, got %q", format))
			}
			lang = i18n.Normalize(lang)
			if lang == "" {
				return usageErr(errors.New("--lang must be en, zh-cn or zh-tw"))
			}
			cfg, err := r.config(cmd)
			if err != nil {
				return err
			}
			if err := requireDatabase(cfg); err != nil {
				return err
			}
			ctx := cmd.Context()
			a, err := app.New(ctx, cfg)
			if err != nil {
				return err
			}
			defer a.Close()
			rc := a.Reconciler()
			if date == "" {
				if date, err = rc.Yesterday(ctx); err != nil {
					return err
				}
			}
			rec, err := rc.Day(ctx, date)
			if err != nil {
				if fault.From(err).Code == fault.CodeValidation {
					return usageErr(fmt.Errorf("--date must be a day as YYYY-MM-DD, got %q", date))
				}
				return err
			}
			names := map[int64]string{}
			for _, row := range rec.Rows {
				if _, ok := names[row.AgencyID]; ok || row.AgencyID == 0 {
					continue
				}
				ag, err := a.Agencies.Get(ctx, row.AgencyID)
				if err == nil {
					names[row.AgencyID] = ag.Name
				}
			}
			doc := docs.Reconciliation{Report: rec, Agencies: names,
				T: func(key string, args ...any) string { return a.Catalog.T(lang, key, args...) }}
			f, err := docs.ExportReconciliation(format, doc)
			if err != nil {
				return err
			}
			if out == "" {
				out = f.Name
			}
			if out == "-" {
				if _, err := cmd.OutOrStdout().Write(f.Body); err != nil {
					return err
				}
			} else if err := os.WriteFile(out, f.Body, 0o640); err != nil {
				return fmt.Errorf("write %s: %w", out, err)
			}
			summary := cmd.OutOrStdout()
			if out == "-" {
				summary = cmd.ErrOrStderr()
			}
			fmt.Fprintf(summary, "%s (%s): %s, %s", rec.Date, rec.Zone, countNoun(len(rec.Rows), "transaction", "transactions"),
				countNoun(rec.Differences, "difference", "differences"))
			if out != "-" {
				fmt.Fprintf(summary, " → %s", out)
			}
			fmt.Fprintln(summary)
			for _, t := range rec.Totals {
				fmt.Fprintf(summary, "  %-20s %s  %5d  gross %s  fee %s  net %s  differences %d\n", t.Channel, t.Currency, t.Count,
					reconMoney(t.Gross, t.Currency), reconMoney(t.Fee, t.Currency), reconMoney(t.Net, t.Currency), t.Differences)
			}
			if rec.Truncated {
				fmt.Fprintf(cmd.ErrOrStderr(), "more than %d transactions on %s: the report holds the first %d (differences first) and its totals cover those only\n",
					payment.MaxReconRows, rec.Date, payment.MaxReconRows)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&date, "date", "", "the day, YYYY-MM-DD on the provider's clock (its agency's time zone); yesterday there when not given")
	fl.StringVar(&format, "format", docs.CSV, "file format: csv or xlsx")
	fl.StringVarP(&out, "output", "o", "", `file to write ("-" for standard output); reconciliation-YYYYMMDD.<format> in the current folder when not given`)
	fl.StringVar(&lang, "lang", "en", "language of the headers and labels: en, zh-cn or zh-tw")
	flagChoices(cmd, "format", []string{docs.CSV, docs.XLSX})
	flagChoices(cmd, "output", []string{}) // a file, not the output format
	return cmd
}

// reconMoney writes an amount as a plain decimal: 1234.50.
func reconMoney(minor int64, currency string) string {
	return money.Amount{Minor: minor, Currency: currency}.String()
}
