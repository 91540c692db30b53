package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// examples are the Example sections of the commands that do not set their
// own, by command path; a test checks that every runnable command has one.
var examples = map[string]string{
	"voyage serve": `  voyage serve --db ./var/voyage.db
  VOYAGE_DB=postgres://voyage@db/voyage voyage serve --no-migrate`,
	"voyage migrate down": `  voyage migrate down --db ./var/voyage.db`,
	"voyage tui": `  voyage tui --db ./var/voyage.db
  voyage tui --server https://voyage.example.com --api-key "$VOYAGE_API_KEY" --refresh 10s
  voyage tui --db ./var/voyage.db --lang zh-cn`,
	"voyage docs": `  voyage docs --dir docs/cli`,
	"voyage agency create": `  voyage agency create --name "Blue Sky Travel" --contact-name "Li Na" --contact-email ops@bluesky.example \
    --contact-phone +86-10-5555-0100 --super-username bluesky-admin --currency CNY`,
	"voyage agency update": `  voyage agency update 222 --contact-email finance@bluesky.example
  voyage agency update 222 --name "蓝天旅行社" -o json`,
	"voyage agency block": `  # see what would change, then block it (a script says --yes; -y is the same)
  voyage agency block 222 --dry-run
  voyage agency block 222 --yes`,
	"voyage agency unblock": `  voyage agency unblock 222 --dry-run
  voyage agency unblock 222 -y`,
	"voyage funds add": `  # see what would be credited, then credit it (a second run with the same key changes nothing)
  voyage funds add --agency 222 --amount 10000 --currency CNY --reference HSBC-20261125-01 --idempotency-key hsbc-01 --dry-run
  voyage funds add --agency 222 --amount 10000 --currency CNY --reference HSBC-20261125-01 --idempotency-key hsbc-01 --yes

  # 1,000 USD received, credited as CNY at 7.1
  voyage funds add --agency 222 --currency CNY --currency-received USD --amount-received 1000 --rate 7.1 --amount 7100 \
    --reference WIRE-9 --idempotency-key wire-9 --yes`,
	"voyage apikey create": `  voyage apikey create --agency 222 --name "booking engine" --role operator
  voyage apikey create --provider --name "finance scripts" --role finance`,
	"voyage apikey list": `  voyage apikey list --agency 222`,
	"voyage apikey revoke": `  voyage apikey revoke --agency 222 17 --dry-run
  voyage apikey revoke --agency 222 17 --yes`,
	"voyage user create": `  voyage user create --agency 222 --username li.na --email li.na@bluesky.example --role operator
  voyage user create --agency 222 --username finance1 --email f1@bluesky.example --role finance --role operator`,
	"voyage user disable": `  voyage user disable --agency 222 41 --dry-run
  voyage user disable --agency 222 41 --yes`,
	"voyage user list": `  voyage user list --agency 222
  voyage user list --agency 222 --role finance --status active -o csv`,
	"voyage rates list": `  voyage rates list
  voyage rates list --currency USD -o json`,
	"voyage rates set": `  # one US dollar is worth 7.12 CNY (the default currency)
  voyage rates set USD 7.12 --dry-run
  voyage rates set USD 7.12 --yes`,
	"voyage orders list": `  voyage orders list --group reviewing
  voyage orders list --agency 222 --status issued --keyword NX7K2P -o json`,
	"voyage orders show": `  voyage orders show 1042`,
	"voyage orders review": `  voyage orders review 1042 --action quote --refund-amount 1200.00 --fee 150.00 --yes
  voyage orders review 1042 --action reject --remark "fare is non-refundable" --yes`,
	"voyage groups list": `  voyage groups list --queue
  voyage groups list --status to_be_pay_first -o json`,
	"voyage groups show": `  voyage groups show 12`,
	"voyage groups quote": `  # 10 adults at 1,000.00 (120.00 taxes), a 30% deposit due in 4 days and the rest in 30 days
  voyage groups quote 12 --fare adult=1000.00:120.00 --confirm-before 48h --list-deadline 504h \
    --installment first=3000.00@96h --installment final=7000.00@720h --free-drop 1 --yes`,
	"voyage groups seats": `  voyage groups seats 12 --result applying --yes
  voyage groups seats 12 --result granted --remark "MU group desk ref G8812" --yes`,
	"voyage orders train list": `  voyage orders train list --status proceeding
  voyage orders train list --agency 222 --keyword G101 -o json`,
	"voyage orders train show": `  voyage orders train show 31`,
	"voyage orders train confirm": `  voyage orders train confirm 31 --yes
  # manual mode: the tickets as the railway's counter printed them, one --ticket per passenger
  voyage orders train confirm 31 --ticket 501=05/09A/E133178058 --ticket 502=05/09B/E852904653 --yes
  voyage orders train confirm 31 --fail --remark "sold out at the station" --yes`,
	"voyage jobs list": `  voyage jobs list
  voyage jobs list -o json`,
	"voyage jobs retry": `  voyage jobs retry 88
  voyage jobs retry --all-stuck`,
	"voyage superadmin reset-password": `  voyage superadmin reset-password --agency 222
  voyage superadmin reset-password --agency 222 --password 'a-long-passphrase-2026'`,
}

// addExamples fills the Example of every command under cmd that has none
// and is in examples.
func addExamples(cmd *cobra.Command) {
	if cmd.Example == "" {
		cmd.Example = strings.TrimRight(examples[cmd.CommandPath()], "\n")
	}
	for _, c := range cmd.Commands() {
		addExamples(c)
	}
}
