package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/payment"
)

// channelSettings is where a channel's credentials are set.
func channelSettings(channel string) string {
	switch {
	case strings.HasPrefix(channel, "yeepay-"):
		return "payment.yeepay"
	case channel == "wechat-pay":
		return "payment.wechat_pay"
	}
	return "payment." + channel
}

func (r *Root) paymentsCmd() *cobra.Command {
	var amount, currency string
	check := &cobra.Command{
		Use:   "check CHANNEL",
		Short: "Check a payment channel with this machine's credentials: create a payment nobody pays, ask for it, close it (no money moves)",
		Example: "  voyage payments check alipay\n  voyage payments check wechat-pay\n" +
			"  voyage payments check stripe --amount 0.50 --currency USD",
		Args:      cobra.ExactArgs(1),
		ValidArgs: slices.DeleteFunc(slices.Clone(payment.Channels), func(c string) bool { return c == payment.ChannelBalance }),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if name == payment.ChannelBalance || !slices.Contains(payment.Channels, name) {
				return usageErr(fmt.Errorf("%q is not a payment channel: one of %s", name,
					strings.Join(cmd.ValidArgs, ", ")))
			}
			cfg, err := r.config(cmd)
			if err != nil {
				return err
			}
			amt, err := money.Parse(amount, strings.ToUpper(currency))
			if err != nil || amt.Minor <= 0 {
				return usageErr(fmt.Errorf("--amount %q %s is not a positive sum", amount, currency))
			}
			channels, err := app.BuildChannels(cfg.Payment.ChannelsConfig, nil)
			if err != nil {
				return err
			}
			ch, ok := channels[name]
			if !ok {
				fmt.Fprintf(cmd.OutOrStdout(), "%s: skipped, no credentials on this machine (set %s.* in voyage.yaml or VOYAGE_%s_*)\n",
					name, channelSettings(name), strings.ToUpper(strings.ReplaceAll(channelSettings(name), ".", "_")))
				return nil
			}
			notify := strings.TrimRight(cfg.Payment.PublicURL, "/") + "/payment/v2/notify/" + name
			steps, err := payment.LiveCheck(cmd.Context(), ch, amt.Minor, amt.Currency, notify)
			out := cmd.OutOrStdout()
			for _, s := range steps {
				res := s.Result
				if s.Err != nil {
					res = "FAILED: " + s.Err.Error()
				}
				fmt.Fprintf(out, "%-20s %8s  %s\n", s.Step, s.Took, res)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "%s: ok\n", name)
			return nil
		},
	}
	check.Flags().StringVar(&amount, "amount", "0.01", "the check payment's amount")
	check.Flags().StringVar(&currency, "currency", "CNY", "its currency")
	cmd := &cobra.Command{Use: "payments", Short: "Payment channels: check one against its provider with this machine's credentials",
		Args: suggestArgs, RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() }}
	cmd.AddCommand(check, r.paymentsReconcileCmd())
	return cmd
}
