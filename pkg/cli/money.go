package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/ledger"
)

func (r *Root) creditCmd() *cobra.Command {
	return adminNoun("credit", "An agency's credit line, as the provider", r.creditSetCmd())
}

func (r *Root) fundsCmd() *cobra.Command {
	return adminNoun("funds", "Money an agency sent the provider, as the provider", r.fundsAddCmd())
}

// dryRunNote follows the plan a --dry-run shows.
const dryRunNote = "dry run: nothing was changed"

// guard is the one confirmation of every command that changes something
// (money, an agency's access, a key, a user, a rate): --dry-run shows the
// plan and changes nothing, --yes or -y goes ahead without the question,
// and otherwise the question is asked at a terminal (a script must say
// --yes). Register its flags with flags, decide with proceed.
type guard struct{ dryRun, yes bool }

// flags adds --dry-run and --yes/-y to cmd.
func (g *guard) flags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&g.dryRun, "dry-run", false, "show what would change, change nothing")
	yesFlag(cmd, &g.yes)
}

// proceed is planned with the guard's flags.
func (g *guard) proceed(cmd *cobra.Command, plan view, question string) (bool, error) {
	return planned(cmd, g.dryRun, g.yes, plan, dryRunNote, question)
}

// yesFlag adds --yes and its shorthand -y, the same on every command that
// asks before it changes something.
func yesFlag(cmd *cobra.Command, yes *bool) {
	cmd.Flags().BoolVarP(yes, "yes", "y", false, "do not ask for confirmation")
}

// planned shows a change's plan on --dry-run, dryNote after it, or else
// asks question unless --yes: ok is whether to make the change.
func planned(cmd *cobra.Command, dryRun, yes bool, plan view, dryNote, question string) (ok bool, err error) {
	if dryRun {
		if err := render(cmd, plan); err != nil {
			return false, err
		}
		note(cmd, "%s", dryNote)
		return false, nil
	}
	if err := confirm(cmd, yes, question); err != nil {
		return false, err
	}
	return true, nil
}

// creditPlan is what `credit set --dry-run` prints.
type creditPlan struct {
	DryRun bool `json:"dryRun"`
	agency.CreditPlan
}

func (r *Root) creditSetCmd() *cobra.Command {
	var id int64
	var limit, unit string
	var period int
	var dryRun, yes bool
	cmd := r.agencyVerb("set --agency ID --limit AMOUNT [--period N --unit day|week|month|year] [--dry-run] [--yes]",
		"Set an agency's credit limit (in its settlement currency) and credit period", &id,
		func(cmd *cobra.Command, b admin.Backend) error {
			ctx := cmd.Context()
			ag, err := b.Agency(ctx, id)
			if err != nil {
				return err
			}
			req := agency.CreditRequest{CreditLimit: limit, CreditPeriod: ag.CreditPeriod, CreditPeriodUnit: ag.CreditPeriodUnit}
			if cmd.Flags().Changed("period") {
				req.CreditPeriod = period
			}
			if cmd.Flags().Changed("unit") {
				req.CreditPeriodUnit = unit
			}
			// The dry run makes the checks the real run does.
			p, err := b.PreviewCredit(ctx, id, req)
			if err != nil {
				return err
			}
			req.CreditPeriodUnit = p.PeriodUnit
			plan := creditPlan{DryRun: dryRun, CreditPlan: p}
			q := fmt.Sprintf("Set the credit limit of %s (%d) from %s to %s %s?", p.Agency, p.AgencyID, p.CreditLimit, p.NewCreditLimit, p.Currency)
			if ok, err := planned(cmd, dryRun, yes, creditPlanView(plan), dryRunNote, q); !ok {
				return err
			}
			sum, err := b.SetCredit(ctx, id, req)
			if err != nil {
				return err
			}
			return render(cmd, view{Data: sum, KeyValue: true, Rows: [][]string{
				{"ID", fmtID(sum.ID)}, {"Name", sum.Name}, {"Currency", sum.Currency}, {"Balance", sum.Balance},
				{"Credit limit", sum.CreditLimit}, {"Available", sum.Available},
				{"Credit period", strconv.Itoa(req.CreditPeriod) + " " + req.CreditPeriodUnit}}})
		})
	cmd.Long = "Set an agency's credit limit, in its settlement currency, and its credit period;\n" +
		"the period stays as it is unless --period or --unit is given. Asks for\n" +
		"confirmation at a terminal unless --yes; --dry-run only shows what would change."
	cmd.Example = `  # see what a limit of 50,000 would change, then set it
  voyage credit set --agency 222 --limit 50000 --dry-run
  voyage credit set --agency 222 --limit 50000 --yes

  # a 30-day credit period as well
  voyage credit set --agency 222 --limit 50000 --period 30 --unit day --yes`
	cmd.Annotations = map[string]string{"fields": "creditLimit=limit,creditPeriod=period,creditPeriodUnit=unit"}
	fl := cmd.Flags()
	fl.StringVar(&limit, "limit", "", "the new credit limit, in the agency's settlement currency (required)")
	fl.IntVar(&period, "period", 0, "credit period length, 0–366")
	fl.StringVar(&unit, "unit", "", "credit period unit: day, week, month or year")
	flagChoices(cmd, "unit", []string{"day", "week", "month", "year"})
	fl.BoolVar(&dryRun, "dry-run", false, "show what would change, change nothing")
	yesFlag(cmd, &yes)
	_ = cmd.MarkFlagRequired("limit")
	return cmd
}

func creditPlanView(p creditPlan) view {
	return view{Data: p, KeyValue: true, Rows: [][]string{
		{"Agency", fmt.Sprintf("%s (%d)", p.Agency, p.AgencyID)}, {"Currency", p.Currency},
		{"Credit limit", p.CreditLimit + " -> " + p.NewCreditLimit}, {"Balance", p.Balance},
		{"Available", p.Available + " -> " + p.NewAvailable},
		{"Credit period", strconv.Itoa(p.CreditPeriod) + " " + p.PeriodUnit}}}
}

// fundsPlan is what `funds add --dry-run` prints: the figures the top-up
// would post.
type fundsPlan struct {
	DryRun bool `json:"dryRun"`
	agency.FundsPlan
}

func (r *Root) fundsAddCmd() *cobra.Command {
	var id int64
	var t ledger.TopUp
	var dryRun, yes bool
	cmd := &cobra.Command{
		Use:   "add --agency ID --amount AMOUNT --currency CUR --reference REF --idempotency-key KEY [flags]",
		Short: "Top an agency's wallet up with money it sent (once per idempotency key)",
		Long: "Credit an agency's wallet with money it sent the provider. --amount is what the\n" +
			"wallet is credited, in --currency. When the money arrived in another currency or\n" +
			"with a fee, give --currency-received, --amount-received, --rate and --fee-percent:\n" +
			"the ledger computes the credited amount and refuses the top-up when --amount\n" +
			"disagrees. Without --amount-received, the amount received is --amount at rate 1.\n" +
			"The same --idempotency-key never credits twice: a repeat with the same figures\n" +
			"replays the first top-up, with other figures it is refused (exit code 4).\n" +
			"Asks for confirmation at a terminal unless --yes; --dry-run only shows the figures.",
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireAgency(id); err != nil {
				return err
			}
			if strings.TrimSpace(t.Amount) == "" && strings.TrimSpace(t.AmountReceived) == "" {
				return usageErr(errorf("give --amount (the amount credited) or --amount-received"))
			}
			t.Currency = strings.ToUpper(strings.TrimSpace(t.Currency))
			t.CurrencyReceived = strings.ToUpper(strings.TrimSpace(t.CurrencyReceived))
			if t.CurrencyReceived == "" {
				t.CurrencyReceived = t.Currency
			}
			if strings.TrimSpace(t.AmountReceived) == "" {
				t.AmountReceived = t.Amount
			}
			if strings.TrimSpace(t.ExchangeRate) == "" && t.CurrencyReceived == t.Currency {
				t.ExchangeRate = "1"
			}
			return r.withBackend(cmd, func(b admin.Backend) error {
				ctx := cmd.Context()
				p, err := b.PreviewFunds(ctx, id, t)
				if err != nil {
					return err
				}
				plan := fundsPlan{DryRun: dryRun, FundsPlan: p}
				dry := dryRunNote
				if p.KeyUsed {
					dry = fmt.Sprintf("dry run: nothing was changed; the idempotency key %q is already used: a real run replays it (same figures) or is refused (other figures)", t.IdempotencyKey)
				}
				q := fmt.Sprintf("Credit %s %s to %s (%d), reference %q?", p.Credited, p.Currency, p.Agency, p.AgencyID, p.Reference)
				if ok, err := planned(cmd, dryRun, yes, fundsPlanView(plan), dry, q); !ok {
					return err
				}
				res, err := b.AddFunds(ctx, id, t)
				if err != nil {
					return err
				}
				if err := render(cmd, view{Data: res, KeyValue: true, Rows: [][]string{
					{"Transfer", fmtID(res.TransferID)}, {"Agency", fmt.Sprintf("%s (%d)", p.Agency, p.AgencyID)}, {"Currency", res.Currency},
					{"Gross", res.Gross}, {"Fee", res.Fee}, {"Credited", res.Credited}, {"Balance", res.Balance},
					{"Replayed", yesNo(res.Replayed)}}}); err != nil {
					return err
				}
				if res.Replayed {
					note(cmd, "replayed: this idempotency key was already posted; nothing new was credited")
				}
				return nil
			})
		},
	}
	agencyFlag(cmd, &id)
	fl := cmd.Flags()
	fl.StringVar(&t.Amount, "amount", "", "amount credited to the wallet, in --currency")
	fl.StringVar(&t.Currency, "currency", "", "wallet currency credited (required)")
	fl.StringVar(&t.CurrencyReceived, "currency-received", "", "currency the money arrived in (default: --currency)")
	fl.StringVar(&t.AmountReceived, "amount-received", "", "amount that arrived, in --currency-received (default: --amount)")
	fl.StringVar(&t.ExchangeRate, "rate", "", "units of --currency per unit of --currency-received (1 when the same)")
	fl.StringVar(&t.FeePercent, "fee-percent", "", "transaction fee percentage kept by the provider")
	fl.StringVar(&t.Reference, "reference", "", "bank or payment reference (required)")
	fl.StringVar(&t.IdempotencyKey, "idempotency-key", "", "unique key of this top-up: a repeat never credits twice (required)")
	fl.StringVar(&t.Remark, "remark", "", "internal remark")
	fl.BoolVar(&t.SendEmail, "send-email", false, "email the agency's contact a top-up notice")
	fl.BoolVar(&dryRun, "dry-run", false, "show the figures, post nothing")
	yesFlag(cmd, &yes)
	for _, f := range []string{"currency", "reference", "idempotency-key"} {
		_ = cmd.MarkFlagRequired(f)
	}
	return cmd
}

func fundsPlanView(p fundsPlan) view {
	return view{Data: p, KeyValue: true, Rows: [][]string{
		{"Agency", fmt.Sprintf("%s (%d)", p.Agency, p.AgencyID)},
		{"Received", p.AmountReceived + " " + p.CurrencyReceived}, {"Rate", p.ExchangeRate},
		{"Gross", p.Gross + " " + p.Currency}, {"Fee", p.Fee + " " + p.Currency + " (" + p.FeePercent + "%)"},
		{"Credited", p.Credited + " " + p.Currency}, {"Balance", p.Balance + " -> " + p.NewBalance},
		{"Reference", p.Reference}, {"Idempotency key", p.IdempotencyKey + map[bool]string{true: " (already used)", false: ""}[p.KeyUsed]}}}
}
