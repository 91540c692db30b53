package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"github.com/mattn/go-runewidth"
	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
)

// writeTable writes rows in columns aligned by display width, so that a
// Chinese name (two columns a character on a terminal) does not push the
// columns after it out of line as text/tabwriter's rune count does.
func writeTable(w io.Writer, rows [][]string) error {
	widths := []int{}
	for _, r := range rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], runewidth.StringWidth(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		b.Reset()
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-runewidth.StringWidth(c)+2))
			}
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return err
		}
	}
	return nil
}

// errNoDatabase refuses a SQLite file that is not there: opening it would
// create and migrate an empty database at a mistyped path, and the command
// would then fail with something unrelated ("no provider agency").
func requireDatabase(cfg config.Config) error {
	dialect, conn, err := store.ParseDSN(cfg.DB)
	if err != nil || dialect != store.SQLite {
		return nil
	}
	file, _, _ := strings.Cut(conn, "?")
	if file == ":memory:" || strings.HasPrefix(file, "file:") {
		return nil
	}
	if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
		return usageErr(fmt.Errorf("no database at %s (check --db); to create one there run: voyage migrate up --db %s", file, file))
	}
	return nil
}

// quietLogs keeps an ordinary command's stderr for its own messages: the
// application's start-up lines (the job queue's, the islands bundle's
// warning) are for a server's log, so they show only with an explicit
// --log-level.
func quietLogs(cmd *cobra.Command, cfg *config.Config) {
	if f := cmd.Flags().Lookup("log-level"); f != nil && f.Changed {
		return
	}
	if os.Getenv("VOYAGE_LOG_LEVEL") != "" {
		return
	}
	cfg.LogLevel = "error"
}

// commandError words a service error for the command that met it: a
// missing record is named by what was asked for ("agency 9999"), and
// request fields are named by the flags that set them ("--limit -5"), not
// by the API's field names.
func commandError(cmd *cobra.Command, err error) error {
	if err == nil {
		return nil
	}
	var d *described
	if errors.As(err, &d) {
		return err
	}
	if code := admin.Code(err); code == fault.CodeNotFound {
		if what := askedFor(cmd); what != "" {
			return &described{msg: fmt.Sprintf("%s not found (or not an agency you manage) [code %d]", what, code), err: err}
		}
	}
	if fe, ok := fault.As(err); ok && len(fe.Fields) > 0 {
		c := *fe
		c.Fields = flagFields(cmd, fe.Fields)
		return describe(&c)
	}
	var re *admin.Error
	if errors.As(err, &re) && len(re.Fields) > 0 {
		c := *re
		c.Fields = flagFields(cmd, re.Fields)
		return &c
	}
	return describe(err)
}

// askedFor is what a command looked up: its id argument under its noun
// ("agency 9999"), or the agency of --agency.
func askedFor(cmd *cobra.Command) string {
	if a := cmd.Flags().Args(); len(a) > 0 && cmd.Parent() != nil {
		return cmd.Parent().Name() + " " + a[0]
	}
	if f := cmd.Flags().Lookup("agency"); f != nil && f.Changed {
		return "agency " + f.Value.String()
	}
	return ""
}

// flagFields renames request fields to the flags that set them, with the
// value given: a command says which field is which in its "fields"
// annotation ("creditLimit=limit,creditPeriod=period"); otherwise a field
// is its flag in kebab case (contactEmail → --contact-email).
func flagFields(cmd *cobra.Command, fields map[string]string) map[string]string {
	names := map[string]string{}
	for _, pair := range strings.Split(cmd.Annotations["fields"], ",") {
		if f, flag, ok := strings.Cut(pair, "="); ok {
			names[f] = flag
		}
	}
	out := make(map[string]string, len(fields))
	for field, msg := range fields {
		name, ok := names[field]
		if !ok {
			name = kebab(field)
		}
		f := cmd.Flags().Lookup(name)
		switch {
		case f == nil:
			out[field] = msg
		case f.Changed:
			out["--"+f.Name+" "+f.Value.String()] = msg
		default:
			out["--"+f.Name] = msg
		}
	}
	return out
}

func kebab(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('-')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// suggestArgs is the Args check of a noun command: a word that is none of
// its verbs is an unknown command with cobra's "did you mean" list.
func suggestArgs(cmd *cobra.Command, a []string) error {
	if len(a) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", a[0], cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if s := cmd.SuggestionsFor(a[0]); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
	}
	return usageErr(fmt.Errorf("%s\n\nRun '%s --help' for its commands", msg, cmd.CommandPath()))
}

// outputFlag gives a command outside the admin nouns (version, migrate
// status, demo seed) the -o flag: text, or json for scripts.
func outputFlag(cmd *cobra.Command) {
	cmd.Flags().StringP("output", "o", "text", "output format: text or json")
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
}

// printOr writes data as JSON with -o json, otherwise text writes the
// human form.
func printOr(cmd *cobra.Command, data any, text func(w io.Writer)) error {
	f, _ := cmd.Flags().GetString("output")
	switch strings.ToLower(strings.TrimSpace(f)) {
	case "json":
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		return enc.Encode(data)
	case "", "text", FormatTable:
		text(cmd.OutOrStdout())
		return nil
	}
	return usageErr(fmt.Errorf("unknown --output %q: use text or json", f))
}
