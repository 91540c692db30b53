package cli

import (
	"bufio"

	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/docs"
)

// Output formats of the admin commands.
const (
	FormatTable = "table"
	FormatJSON  = "json"
	FormatYAML  = "yaml"
	FormatCSV   = "csv"
)

// adminNoun makes a noun command (agency, credit, funds…): its verbs share
// --output, and a flag that does not parse is a usage error.
func adminNoun(use, short string, verbs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{Use: use, Short: short, Args: suggestArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() }}
	cmd.PersistentFlags().StringP("output", "o", FormatTable, "output format: table, json, yaml or csv")
	cmd.PersistentFlags().String("server", "", "reach a Voyage server through its agency API (e.g. https://voyage.example.com) instead of --db; env VOYAGE_SERVER")
	cmd.PersistentFlags().String("api-key", "", "API key for --server (the provider's, or a parent agency's for its sub-agencies); env VOYAGE_API_KEY")
	cmd.SetFlagErrorFunc(flagError)
	cmd.AddCommand(verbs...)
	return cmd
}

func outputFormat(cmd *cobra.Command) (string, error) {
	f, _ := cmd.Flags().GetString("output")
	switch f = strings.ToLower(strings.TrimSpace(f)); f {
	case "", FormatTable:
		return FormatTable, nil
	case FormatJSON, FormatYAML, FormatCSV:
		return f, nil
	}
	return "", usageErr(fmt.Errorf("unknown --output %q: use table, json, yaml or csv", f))
}

// view is one answer of a command: Data for the machine formats, the same
// content as rows for a table and CSV. With KeyValue the rows are
// field/value pairs of one record.
type view struct {
	Data     any
	Headers  []string
	Rows     [][]string
	KeyValue bool
}

// render writes v to the command's output in the format of --output.
func render(cmd *cobra.Command, v view) error {
	format, err := outputFormat(cmd)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	switch format {
	case FormatJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v.Data)
	case FormatYAML:
		// Through JSON, so that YAML has the same field names as JSON.
		b, err := json.Marshal(v.Data)
		if err != nil {
			return err
		}
		var generic any
		if err := json.Unmarshal(b, &generic); err != nil {
			return err
		}
		enc := yaml.NewEncoder(w)
		enc.SetIndent(2)
		if err := enc.Encode(generic); err != nil {
			return err
		}
		return enc.Close()
	case FormatCSV:
		headers := v.Headers
		if v.KeyValue {
			headers = []string{"field", "value"}
		}
		rows := v.Rows
		if len(headers) > 0 {
			rows = append([][]string{headers}, v.Rows...)
		}
		// Names and references come from people: no cell runs as a formula.
		return docs.WriteCSVRows(w, rows)
	}
	var table [][]string
	if v.KeyValue {
		for _, r := range v.Rows {
			table = append(table, []string{r[0] + ":", strings.Join(r[1:], " ")})
		}
		return writeTable(w, table)
	}
	if len(v.Headers) > 0 {
		up := make([]string, len(v.Headers))
		for i, h := range v.Headers {
			up[i] = strings.ToUpper(h)
		}
		table = append(table, up)
	}
	table = append(table, v.Rows...)
	if len(v.Rows) == 0 && len(v.Headers) > 0 {
		table = append(table, []string{"(none)"})
	}
	return writeTable(w, table)
}

// note tells the person at the terminal something beside the answer: on
// stdout with a table, on stderr with a machine format, so that the output
// stays parseable.
func note(cmd *cobra.Command, format string, a ...any) {
	w := cmd.ErrOrStderr()
	if f, _ := outputFormat(cmd); f == FormatTable {
		w = cmd.OutOrStdout()
	}
	fmt.Fprintf(w, format+"\n", a...)
}

// isTerminal reports whether in is an interactive terminal. A reader that
// says itself whether it is one (a test's stand-in for a terminal) is
// believed.
func isTerminal(in io.Reader) bool {
	if t, ok := in.(interface{ Terminal() bool }); ok {
		return t.Terminal()
	}
	f, ok := in.(*os.File)
	if !ok {
		return false
	}
	// Not os.ModeCharDevice: /dev/null is a character device too.
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

var errAborted = errors.New("aborted: nothing was changed")

// errNeedYes refuses a change that cannot be confirmed: with stdin not
// a terminal (a script, a pipe, cron) nobody can answer, so the command
// must say --yes itself, as gh does.
var errNeedYes = usageErr(errors.New("this makes a change and stdin is not a terminal to confirm it: add --yes (-y) to go ahead (or --dry-run to see the plan)"))

// confirm asks before a change unless --yes was given; without a
// terminal to ask on it refuses (errNeedYes), and a "no" is errAborted.
func confirm(cmd *cobra.Command, yes bool, question string) error {
	in := cmd.InOrStdin()
	if yes {
		return nil
	}
	if !isTerminal(in) {
		return errNeedYes
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "%s [y/N]: ", question)
	line, _ := bufio.NewReader(in).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	return errAborted
}

// backend is where an admin command's operations run: through the agency
// API of --server with --api-key, otherwise in-process on --db as the
// provider.
func (r *Root) backend(cmd *cobra.Command) (admin.Backend, error) {
	if _, err := outputFormat(cmd); err != nil {
		return nil, err
	}
	server, key := flagOrEnv(cmd, "server", "VOYAGE_SERVER"), flagOrEnv(cmd, "api-key", "VOYAGE_API_KEY")
	if server != "" {
		b, err := admin.NewRemote(server, key, nil)
		if err != nil {
			return nil, usageErr(err)
		}
		return b, nil
	}
	if key != "" && cmd.Flags().Changed("api-key") {
		return nil, usageErr(errors.New("--api-key needs --server"))
	}
	cfg, err := r.config(cmd)
	if err != nil {
		return nil, err
	}
	if err := requireDatabase(cfg); err != nil {
		return nil, err
	}
	return admin.OpenLocal(cmd.Context(), cfg, osUser())
}

// withBackend runs fn on the command's backend, closed after it, and words
// a service's error for the terminal.
func (r *Root) withBackend(cmd *cobra.Command, fn func(b admin.Backend) error) error {
	b, err := r.backend(cmd)
	if err != nil {
		return err
	}
	defer b.Close()
	return commandError(cmd, fn(b))
}

// renderAs renders a backend's answer as view makes it, or gives its
// error: renderAs(cmd, userView)(b.DisableUser(ctx, agency, id)).
func renderAs[T any](cmd *cobra.Command, view func(T) view) func(T, error) error {
	return func(v T, err error) error {
		if err != nil {
			return err
		}
		return render(cmd, view(v))
	}
}

// local is the in-process backend, for what only the server's own host may
// do (a key of the provider itself).
func (r *Root) local(cmd *cobra.Command) (*admin.Local, error) {
	b, err := r.backend(cmd)
	if err != nil {
		return nil, err
	}
	l, ok := b.(*admin.Local)
	if !ok {
		b.Close()
		return nil, usageErr(errors.New("this runs only in-process on the server's database (--db), not with --server"))
	}
	return l, nil
}

func flagOrEnv(cmd *cobra.Command, flag, env string) string {
	if f := cmd.Flags().Lookup(flag); f != nil && f.Changed {
		return strings.TrimSpace(f.Value.String())
	}
	return strings.TrimSpace(os.Getenv(env))
}

// parseID reads a numeric id argument.
func parseID(what, s string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || id <= 0 {
		return 0, usageErr(fmt.Errorf("%s must be a positive number, got %q", what, s))
	}
	return id, nil
}

// requireAgency checks that --agency was given a usable id.
func requireAgency(id int64) error {
	if id <= 0 {
		return usageErr(errors.New("--agency must be a positive agency id"))
	}
	return nil
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

func fmtTimePtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return fmtTime(*t)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }

func fmtID(n int64) string { return strconv.FormatInt(n, 10) }

// listed is one page of a list as the server answered it: data is what
// --output json prints, items its rows' sources.
type listed[T any] struct {
	data                  any
	items                 []T
	page, pageSize, total int
}

// bookings is one page of a line's bookings, listed.
func bookings[V any](p booking.Page[V]) listed[V] {
	return listed[V]{data: p, items: p.Items, page: p.Page, pageSize: p.PageSize, total: p.Total}
}

// pageListed is one page of an admin list, listed.
func pageListed[T any](p admin.Page[T]) listed[T] {
	return listed[T]{data: p, items: p.Items, page: p.Page, pageSize: p.PageSize, total: p.Total}
}

// printList prints a page of a list, every list alike: a table of headers
// and a row of each item, then, when more pages follow, a note on how to
// ask for the next (noun names the items).
func printList[T any](cmd *cobra.Command, l listed[T], noun string, headers []string, row func(T) []string) error {
	v := view{Data: l.data, Headers: headers}
	for _, it := range l.items {
		v.Rows = append(v.Rows, row(it))
	}
	if err := render(cmd, v); err != nil {
		return err
	}
	if shown := (l.page-1)*l.pageSize + len(l.items); shown < l.total {
		note(cmd, "page %d, %d of %d %s; next: --page %d", l.page, len(l.items), l.total, noun, l.page+1)
	}
	return nil
}

// listAs prints a page a backend answered as printList does, or gives its
// error: listAs(cmd, bookings, "orders", headers, row)(b.Orders(ctx, f)).
func listAs[P, T any](cmd *cobra.Command, list func(P) listed[T], noun string, headers []string, row func(T) []string) func(P, error) error {
	return func(p P, err error) error {
		if err != nil {
			return err
		}
		return printList(cmd, list(p), noun, headers, row)
	}
}

// pageFlags are every list's --page and --page-size (size by default).
func pageFlags(cmd *cobra.Command, page, pageSize *int, size int, noun string) {
	cmd.Flags().IntVar(page, "page", 1, "page, from 1")
	cmd.Flags().IntVar(pageSize, "page-size", size, noun+" per page (at most 100)")
}
