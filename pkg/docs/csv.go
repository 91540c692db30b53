package docs

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/voyage/voyage/pkg/money"
)

// formulaStarts are the first characters that make a spreadsheet read a
// cell as a formula or a command (OWASP "CSV injection"): = + - @, tab and
// carriage return, and the full-width forms a CJK spreadsheet may accept.
const formulaStarts = "=+-@\t\r＝＋－＠"

// CSVCell is a cell as a CSV file may carry it: text that a spreadsheet would
// run (=HYPERLINK(...), +cmd|..., @SUM(...)) gets a leading single quote so it
// is shown as text, as OWASP recommends. A plain number ("-12.50", an
// amount the product wrote) is left alone: it cannot be a formula, and a
// quote would turn it into text.
func CSVCell(s string) string {
	if s == "" || !strings.ContainsAny(firstRune(s), formulaStarts) || money.PlainDecimal(s) {
		return s
	}
	return "'" + s
}

// WriteCSVRows writes rows as CSV with every cell through CSVCell: the one
// way Voyage writes CSV (statements, the admin commands' --output csv).
func WriteCSVRows(w io.Writer, rows [][]string) error {
	cw := csv.NewWriter(w)
	for _, row := range rows {
		safe := make([]string, len(row))
		for i, c := range row {
			safe[i] = CSVCell(c)
		}
		if err := cw.Write(safe); err != nil {
			return fmt.Errorf("docs: csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("docs: csv: %w", err)
	}
	return nil
}

func firstRune(s string) string {
	for i := range s {
		if i > 0 {
			return s[:i]
		}
	}
	return s
}
