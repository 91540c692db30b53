package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/payment"
)

func (r *Root) agencyCmd() *cobra.Command {
	return adminNoun("agency", "Manage the agencies of the network, as the provider",
		r.agencyListCmd(), r.agencyShowCmd(), r.agencyCreateCmd(), r.agencyUpdateCmd(),
		r.agencyStatusCmd("block", agency.StatusBlocked), r.agencyStatusCmd("unblock", agency.StatusActive), r.agencyChannelsCmd())
}

func (r *Root) agencyListCmd() *cobra.Command {
	var f agency.ListFilter
	cmd := &cobra.Command{
		Use:   "list [--keyword K] [--status active|blocked] [--page N] [--page-size N]",
		Short: "List every agency below the provider, newest first",
		Args:  args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.Status != "" && f.Status != agency.StatusActive && f.Status != agency.StatusBlocked {
				return usageErr(errorf("--status must be active or blocked"))
			}
			return r.withBackend(cmd, func(b admin.Backend) error {
				return listAs(cmd, pageListed, "agencies", agencyHeaders, agencyRow)(b.Agencies(cmd.Context(), f))
			})
		},
	}
	cmd.Example = `  voyage agency list
  voyage agency list --keyword "blue sky" --status active
  voyage agency list --page 2 -o csv > agencies.csv`
	cmd.Flags().StringVar(&f.Keyword, "keyword", "", "match name, alias, code or contact email")
	cmd.Flags().StringVar(&f.Status, "status", "", "active or blocked")
	flagChoices(cmd, "status", []string{agency.StatusActive, agency.StatusBlocked})
	pageFlags(cmd, &f.Page, &f.PageSize, auth.DefaultPageSize, "agencies")
	return cmd
}

var agencyHeaders = []string{"id", "code", "name", "status", "currency", "balance", "credit limit", "available", "contact email"}

func agencyRow(s agency.Summary) []string {
	return []string{fmtID(s.ID), s.Code, s.Name, s.Status, s.Currency, s.Balance, s.CreditLimit, s.Available, s.ContactEmail}
}

func (r *Root) agencyShowCmd() *cobra.Command {
	cmd := r.idVerb("show ID", "Show an agency: profile, wallet (balance, credit limit, available), settings and API keys", "agency id",
		func(cmd *cobra.Command, b admin.Backend, id int64) error {
			return renderAs(cmd, detailView)(b.Agency(cmd.Context(), id))
		})
	cmd.Example = "  voyage agency show 222\n  voyage agency show 222 -o json"
	return cmd
}

func detailView(d agency.Detail) view {
	st := d.Config.Settings
	parent := ""
	if d.ParentID != nil {
		parent = fmtID(*d.ParentID)
	}
	period := ""
	if d.CreditPeriod > 0 {
		period = strconv.Itoa(d.CreditPeriod) + " " + d.CreditPeriodUnit
	}
	rows := [][]string{
		{"ID", fmtID(d.ID)}, {"Code", d.Code}, {"Name", d.Name}, {"Alias", d.Alias}, {"Status", d.Status},
		{"Parent", parent}, {"Level", strconv.Itoa(d.ProxyLevel)}, {"Created", fmtTime(d.CreatedAt)},
		{"Contact", d.ContactName}, {"Contact email", d.ContactEmail}, {"Contact phone", d.ContactPhone},
		{"Address", d.Profile.Address},
		{"Currency", d.Currency}, {"Balance", d.Balance}, {"Credit limit", d.CreditLimit}, {"Available", d.Available},
		{"Credit period", period},
		{"Flight service", yesNo(st.EnableFlight)}, {"Train service", yesNo(st.EnableTrain)},
		{"Can create sub-agency", yesNo(st.CanCreateSubAgency)}, {"Show bill", yesNo(st.IsShowBill)},
		{"Email language", st.EmailLanguage}, {"Payment disabled", yesNo(st.DisablePayment)},
		{"Payment channels", channelsText(st.PaymentChannels)},
		{"API keys", strconv.Itoa(len(d.APIKeys))},
	}
	return view{Data: d, Rows: rows, KeyValue: true}
}

// profileFlags are the agency profile's flags shared by create and update.
type profileFlags struct{ p agency.Profile }

func (pf *profileFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&pf.p.Name, "name", "", "agency name")
	fl.StringVar(&pf.p.Alias, "alias", "", "short name")
	fl.StringVar(&pf.p.Address, "address", "", "postal address")
	fl.StringVar(&pf.p.ContactName, "contact-name", "", "contact person")
	fl.StringVar(&pf.p.ContactEmail, "contact-email", "", "contact email (receives top-up notices)")
	fl.StringVar(&pf.p.ContactPhone, "contact-phone", "", "contact phone")
	fl.StringVar(&pf.p.CustomerService, "customer-service", "", "dedicated customer service contact")
	fl.StringVar(&pf.p.ExtraInfo, "extra-info", "", "free notes")
}

// overlay copies the flags that were given onto p.
func (pf *profileFlags) overlay(cmd *cobra.Command, p *agency.Profile) {
	set := func(name string, dst *string, v string) {
		if cmd.Flags().Changed(name) {
			*dst = v
		}
	}
	set("name", &p.Name, pf.p.Name)
	set("alias", &p.Alias, pf.p.Alias)
	set("address", &p.Address, pf.p.Address)
	set("contact-name", &p.ContactName, pf.p.ContactName)
	set("contact-email", &p.ContactEmail, pf.p.ContactEmail)
	set("contact-phone", &p.ContactPhone, pf.p.ContactPhone)
	set("customer-service", &p.CustomerService, pf.p.CustomerService)
	set("extra-info", &p.ExtraInfo, pf.p.ExtraInfo)
}

func (r *Root) agencyCreateCmd() *cobra.Command {
	var pf profileFlags
	var currency, lang string
	var flight, train, subAgencies bool
	var super agency.NewSuperAdmin
	cmd := &cobra.Command{
		Use:   "create --name N --contact-name N --contact-email E --contact-phone P --super-username U [flags]",
		Short: "Create an agency directly below the provider, with its super admin",
		Long: "Create an agency directly below the provider, with its super admin account.\n" +
			"The new agency's parent is always the provider: a sub-agency of another agency\n" +
			"is created by that agency (portal or API). Without --super-password a password\n" +
			"is generated and printed once.",
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return r.withBackend(cmd, func(b admin.Backend) error {
				generated := super.Password == ""
				if generated {
					super.Password = newPassword()
				}
				if super.Email == "" {
					super.Email = pf.p.ContactEmail
				}
				req := agency.CreateRequest{Profile: pf.p, SuperUser: super, Config: agency.Config{Settings: agency.Settings{
					EnableFlight: flight, EnableTrain: train, CanCreateSubAgency: subAgencies, IsShowBill: true,
					SettlementCurrency: currency, EmailLanguage: lang}}}
				d, err := b.CreateAgency(cmd.Context(), req)
				if err != nil {
					return err
				}
				if err := render(cmd, detailView(d)); err != nil {
					return err
				}
				if generated {
					note(cmd, "super admin %s created with the password: %s (shown only now)", super.Username, super.Password)
				} else {
					note(cmd, "super admin %s created", super.Username)
				}
				return nil
			})
		},
	}
	pf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&currency, "currency", "CNY", "settlement currency")
	fl.StringVar(&lang, "email-language", "en", "language of the agency's emails: en or zh")
	fl.BoolVar(&flight, "flight", true, "enable the flight service")
	fl.BoolVar(&train, "train", false, "enable the train service")
	fl.BoolVar(&subAgencies, "can-create-sub-agency", false, "let the agency create sub-agencies")
	fl.StringVar(&super.Username, "super-username", "", "the super admin's username")
	fl.StringVar(&super.Email, "super-email", "", "the super admin's email (default: the contact email)")
	fl.StringVar(&super.Nickname, "super-nickname", "", "the super admin's display name")
	fl.StringVar(&super.Password, "super-password", "", "the super admin's password, 6–15 characters, not a common one (default: generate one)")
	for _, f := range []string{"name", "contact-name", "contact-email", "contact-phone", "super-username"} {
		_ = cmd.MarkFlagRequired(f)
	}
	return cmd
}

func (r *Root) agencyUpdateCmd() *cobra.Command {
	var pf profileFlags
	cmd := r.idVerb("update ID [--name N] [--alias A] [--address A] [--contact-name N] [--contact-email E] [--contact-phone P] ...",
		"Change an agency's profile; what is not given stays as it is", "agency id",
		func(cmd *cobra.Command, b admin.Backend, id int64) error {
			cur, err := b.Agency(cmd.Context(), id)
			if err != nil {
				return err
			}
			p := cur.Profile
			pf.overlay(cmd, &p)
			return renderAs(cmd, detailView)(b.UpdateAgency(cmd.Context(), id, p))
		})
	pf.register(cmd)
	return cmd
}

func (r *Root) agencyStatusCmd(verb, status string) *cobra.Command {
	short := "Block an agency: its users can no longer log in"
	question := "Block %s (%d)? Its users can no longer log in"
	if status == agency.StatusActive {
		short, question = "Unblock an agency", "Unblock %s (%d)? Its users can log in again"
	}
	var g guard
	cmd := r.idVerb(verb+" ID [--dry-run] [--yes]", short, "agency id", func(cmd *cobra.Command, b admin.Backend, id int64) error {
		// The dry run reads the agency as the real run does: one the
		// caller does not manage is not found either way.
		cur, err := b.Agency(cmd.Context(), id)
		if err != nil {
			return err
		}
		plan := view{Data: map[string]any{"dryRun": g.dryRun, "id": cur.ID, "name": cur.Name, "status": cur.Status, "newStatus": status},
			Rows: [][]string{{"ID", fmtID(cur.ID)}, {"Name", cur.Name}, {"Status", cur.Status + " -> " + status}}, KeyValue: true}
		if ok, err := g.proceed(cmd, plan, fmt.Sprintf(question, cur.Name, cur.ID)); !ok {
			return err
		}
		return renderAs(cmd, func(ag agency.Detail) view {
			return view{Data: map[string]any{"id": ag.ID, "name": ag.Name, "status": ag.Status},
				Rows: [][]string{{"ID", fmtID(ag.ID)}, {"Name", ag.Name}, {"Status", ag.Status}}, KeyValue: true}
		})(b.SetAgencyStatus(cmd.Context(), id, status))
	})
	g.flags(cmd)
	return cmd
}

// channelsText is an agency's payment channels setting as the CLI shows it.
func channelsText(chs []string) string {
	switch {
	case chs == nil:
		return "all the server has"
	case len(chs) == 0:
		return "wallet only"
	}
	return "wallet, " + strings.Join(chs, ", ")
}

func (r *Root) agencyChannelsCmd() *cobra.Command {
	var only []string
	var all, walletOnly bool
	cmd := r.idVerb("channels ID [--only CHANNEL,... | --all | --wallet-only]",
		"Show or set the payment channels an agency may pay by, as the provider", "agency id",
		func(cmd *cobra.Command, b admin.Backend, id int64) error {
			set := 0
			for _, on := range []bool{cmd.Flags().Changed("only"), all, walletOnly} {
				if on {
					set++
				}
			}
			if set > 1 {
				return usageErr(errorf("give one of --only, --all and --wallet-only"))
			}
			cur, err := b.Agency(cmd.Context(), id)
			if err != nil || set == 0 {
				return renderAs(cmd, detailView)(cur, err)
			}
			c := cur.Config
			switch {
			case all:
				c.Settings.PaymentChannels = nil
			case walletOnly:
				c.Settings.PaymentChannels = []string{}
			default:
				c.Settings.PaymentChannels = append([]string{}, only...)
			}
			return renderAs(cmd, detailView)(b.SetAgencyConfig(cmd.Context(), id, c))
		})
	cmd.Long = "Without a flag, shows the agency with its payment channels. The wallet (balance) is always allowed unless " +
		"the agency's payment is disabled; the other channels are " + strings.Join(externalChannels(), ", ") + ". " +
		"A channel allowed but not configured on the server is not offered, and a sub-agency never gets a channel its parent may not use. " +
		"Only the provider changes them."
	cmd.Example = "  voyage agency channels 222\n  voyage agency channels 222 --only alipay,stripe\n  voyage agency channels 222 --all"
	cmd.Flags().StringSliceVar(&only, "only", nil, "allow only these external channels (comma separated)")
	cmd.Flags().BoolVar(&all, "all", false, "allow every channel the server has (the default of an agency)")
	cmd.Flags().BoolVar(&walletOnly, "wallet-only", false, "allow the wallet only")
	return cmd
}

// externalChannels are pkg/payment's channels but the wallet.
func externalChannels() []string {
	return slices.DeleteFunc(slices.Clone(payment.Channels), func(c string) bool { return c == payment.ChannelBalance })
}
