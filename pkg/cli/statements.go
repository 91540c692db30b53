package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/mail"
)

func (r *Root) statementsCmd() *cobra.Command {
	return adminNoun("statements", "Agency statements: create them, export them as files (finance batch runs)",
		r.statementsRunCmd("create", false), r.statementsRunCmd("export", true))
}

type statementsOpts struct {
	agency   int64
	all      bool
	from, to string
	format   string
	out      string
	lang     string
	// create makes the statement of a period that has none yet (export).
	create bool
}

// statementLine is what one agency's statement run reports.
type statementLine struct {
	AgencyID    int64  `json:"agencyId"`
	Code        string `json:"code"`
	Agency      string `json:"agency"`
	StatementID int64  `json:"statementId"`
	Currency    string `json:"currency"`
	Opening     string `json:"openingBalance"`
	Closing     string `json:"closingBalance"`
	Entries     int    `json:"entries"`
	File        string `json:"file,omitempty"`
	Lang        string `json:"lang,omitempty"`
}

func (r *Root) statementsRunCmd(verb string, export bool) *cobra.Command {
	var o statementsOpts
	short := "Create the statement of one agency (--agency) or of every agency (--all) for a period"
	if export {
		short = "Write the statements of a period as csv, xlsx or pdf files into --out, one agency at a time"
	}
	example := `  # November's statement of agency 222
  voyage statements create --agency 222 --from 2026-11-01 --to 2026-11-30

  # every agency's statement for November, made once
  voyage statements create --all --from 2026-11-01 --to 2026-11-30 -o json`
	if export {
		example = `  # write the existing November statements as Excel files into ./november
  voyage statements export --all --from 2026-11-01 --to 2026-11-30 --format xlsx --out november

  # the same, creating the statements of agencies that have none for November yet
  voyage statements export --all --from 2026-11-01 --to 2026-11-30 --create

  # each agency's file is in its own language (its emailLanguage setting);
  # --lang writes them all in one: one agency's statement as a Traditional Chinese PDF
  voyage statements export --agency 222 --from 2026-11-01 --to 2026-11-30 --format pdf --lang zh-tw`
	}
	cmd := &cobra.Command{
		Use:     verb + " (--agency ID | --all) --from YYYY-MM-DD --to YYYY-MM-DD",
		Short:   short,
		Example: example,
		Args:    args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (o.agency > 0) == o.all {
				return usageErr(errors.New("give either --agency ID or --all"))
			}
			from, err := time.Parse(time.DateOnly, o.from)
			if err != nil {
				return usageErr(fmt.Errorf("--from must be YYYY-MM-DD, got %q", o.from))
			}
			to, err := time.Parse(time.DateOnly, o.to)
			if err != nil || to.Before(from) {
				return usageErr(fmt.Errorf("--to must be YYYY-MM-DD, not before --from, got %q", o.to))
			}
			if export {
				if !slices.Contains(docs.Formats, o.format) {
					return usageErr(fmt.Errorf("--format must be csv, xlsx or pdf, got %q", o.format))
				}
				if o.lang != "" && !slices.Contains(i18n.Supported(), o.lang) {
					return usageErr(fmt.Errorf("--lang must be en, zh-cn or zh-tw, got %q", o.lang))
				}
				if err := os.MkdirAll(o.out, 0o750); err != nil {
					return fmt.Errorf("create %s: %w", o.out, err)
				}
			}
			return r.withBackend(cmd, func(b admin.Backend) error {
				format, _ := outputFormat(cmd)
				progress := newProgress(cmd.ErrOrStderr(), format)
				n, entries, err := runStatements(cmd.Context(), b, o, from, to, export, func(l statementLine, done, total int) error {
					progress.step(done, total, l)
					return emitLine(cmd, format, l)
				})
				progress.finish()
				if err != nil {
					return err
				}
				if format == FormatTable {
					what := "created"
					if export {
						what = "exported to " + o.out
					}
					fmt.Fprintf(cmd.OutOrStdout(), "%s (%s) %s\n", countNoun(n, "statement", "statements"), countNoun(entries, "entry", "entries"), what)
				}
				return nil
			})
		},
	}
	fl := cmd.Flags()
	fl.Int64Var(&o.agency, "agency", 0, "one agency id")
	fl.BoolVar(&o.all, "all", false, "every agency of the network")
	fl.StringVar(&o.from, "from", "", "first day, YYYY-MM-DD, from 00:00 on each agency's clock (its time zone) (required)")
	fl.StringVar(&o.to, "to", "", "last day, YYYY-MM-DD, inclusive: to 24:00 on each agency's clock (required)")
	_ = cmd.MarkFlagRequired("from")
	_ = cmd.MarkFlagRequired("to")
	if export {
		fl.StringVar(&o.format, "format", docs.CSV, "file format: csv, xlsx or pdf")
		fl.StringVar(&o.out, "out", ".", "folder the files go to")
		fl.StringVar(&o.lang, "lang", "", "language of every document: en, zh-cn or zh-tw (default: each agency's own language setting)")
		fl.BoolVar(&o.create, "create", false, "create the statement of an agency that has none for the period (otherwise that is an error)")
	}
	return cmd
}

// runStatements creates (and with export writes) the statement of each
// agency of o for the inclusive days from–to, one agency at a time so that
// memory does not grow with the number of agencies.
func runStatements(ctx context.Context, b admin.Backend, o statementsOpts, from, to time.Time, export bool,
	each func(l statementLine, done, total int) error) (count, entries int, err error) {
	one := func(ag agency.Summary, done, total int) error {
		var st admin.StatementSummary
		found := false
		if export {
			var err error
			if st, found, err = periodStatement(ctx, b, ag.ID, from, to); err != nil {
				return err
			}
		}
		if !found && export && !o.create {
			return fmt.Errorf("agency %d (%s) has no statement for %s – %s: create it with `voyage statements create --agency %d --from %s --to %s`, or add --create",
				ag.ID, ag.Code, from.Format(time.DateOnly), to.Format(time.DateOnly), ag.ID, from.Format(time.DateOnly), to.Format(time.DateOnly))
		}
		if !found || !export {
			d, err := b.CreateStatement(ctx, ag.ID, from.Format(time.DateOnly), to.Format(time.DateOnly))
			if err != nil {
				return err
			}
			st = d.Summary()
		}
		l := statementLine{AgencyID: ag.ID, Code: ag.Code, Agency: ag.Name, StatementID: st.ID, Currency: st.OpeningBalance.Currency,
			Opening: st.OpeningBalance.Amount, Closing: st.ClosingBalance.Amount, Entries: st.EntryCount}
		if export {
			lang, err := statementLang(ctx, b, o.lang, ag.ID)
			if err != nil {
				return err
			}
			l.File, l.Lang = filepath.Join(o.out, docs.StatementFileName(ag.Code, from, to.AddDate(0, 0, 1), o.format)), lang
			if err := writeStatement(ctx, b, l.File, o.format, lang, ag.ID, st.ID); err != nil {
				return err
			}
		}
		count++
		entries += st.EntryCount
		return each(l, done, total)
	}
	if !o.all {
		ag, err := b.Agency(ctx, o.agency)
		if err != nil {
			return 0, 0, err
		}
		return count, entries, one(ag.Summary, 1, 1)
	}
	const page = 100
	done := 0
	for p := 1; ; p++ {
		list, err := b.Agencies(ctx, agency.ListFilter{Page: p, PageSize: page})
		if err != nil {
			return count, entries, err
		}
		for _, ag := range list.Items {
			done++
			if err := one(ag, done, list.Total); err != nil {
				return count, entries, err
			}
		}
		if len(list.Items) < page {
			return count, entries, nil
		}
	}
}

// periodStatement finds the newest statement of the agency for exactly the
// inclusive days from–to, so that an export writes the statement finance
// already made instead of making another copy on every run.
func periodStatement(ctx context.Context, b admin.Backend, agencyID int64, from, to time.Time) (admin.StatementSummary, bool, error) {
	const size = 100
	first, last := from.Format(time.DateOnly), to.Format(time.DateOnly)
	for p := 1; ; p++ {
		list, err := b.Statements(ctx, agencyID, p, size)
		if err != nil {
			return admin.StatementSummary{}, false, err
		}
		for _, st := range list.Items {
			if st.From == first && st.To == last {
				return st, true, nil
			}
		}
		if len(list.Items) < size || p*size >= list.Total {
			return admin.StatementSummary{}, false, nil
		}
	}
}

// statementLang is the language an agency's statement file is written in:
// the one --lang asked for, else the agency's own setting (its
// emailLanguage, which its mail is written in too), so a batch run writes
// each agency's file in the language it reads.
func statementLang(ctx context.Context, b admin.Backend, asked string, agencyID int64) (string, error) {
	if asked != "" {
		return asked, nil
	}
	d, err := b.Agency(ctx, agencyID)
	if err != nil {
		return "", err
	}
	return mail.Lang(d.Config.Settings.EmailLanguage), nil
}

func writeStatement(ctx context.Context, b admin.Backend, path, format, lang string, agencyID, statementID int64) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	err = b.ExportStatement(ctx, f, agencyID, statementID, format, lang)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
	}
	return err
}

func emitLine(cmd *cobra.Command, format string, l statementLine) error {
	w := cmd.OutOrStdout()
	switch format {
	case FormatJSON:
		return json.NewEncoder(w).Encode(l)
	case FormatCSV:
		_, err := fmt.Fprintf(w, "%d,%s,%q,%d,%s,%s,%s,%d,%s\n", l.AgencyID, l.Code, l.Agency, l.StatementID, l.Currency, l.Opening, l.Closing, l.Entries, l.File)
		return err
	case FormatYAML:
		_, err := fmt.Fprintf(w, "- agencyId: %d\n  code: %s\n  statementId: %d\n  closingBalance: %q\n  entries: %d\n  file: %q\n", l.AgencyID, l.Code, l.StatementID, l.Closing, l.Entries, l.File)
		return err
	}
	return nil
}

// progress draws a bar on a terminal and plain lines otherwise.
type progress struct {
	w        io.Writer
	terminal bool
	plain    bool
	drawn    bool
}

func newProgress(w io.Writer, format string) *progress {
	r, ok := w.(io.Reader) // an *os.File is both
	return &progress{w: w, terminal: ok && isTerminal(r), plain: format == FormatTable}
}

func (p *progress) step(done, total int, l statementLine) {
	switch {
	case p.terminal:
		const width = 30
		filled := width
		if total > 0 {
			filled = done * width / total
		}
		fmt.Fprintf(p.w, "\r[%s%s] %d/%d %s", strings.Repeat("=", filled), strings.Repeat(" ", width-filled), done, total, l.Code)
		p.drawn = true
	case p.plain:
		line := fmt.Sprintf("%d/%d %s %s: %s, closing %s %s", done, total, l.Code, l.Agency, countNoun(l.Entries, "entry", "entries"), l.Closing, l.Currency)
		if l.File != "" {
			line += " → " + l.File
		}
		fmt.Fprintln(p.w, line)
	}
}

func (p *progress) finish() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
