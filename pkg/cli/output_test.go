package cli

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/spf13/cobra"
)

// TestCSVOutputNeutralisesFormulas: --output csv of an admin command writes
// a name typed as a formula as text, and leaves amounts numbers.
func TestCSVOutputNeutralisesFormulas(t *testing.T) {
	t.Parallel()
	cmd := &cobra.Command{}
	cmd.Flags().String("output", "csv", "")
	var out bytes.Buffer
	cmd.SetOut(&out)
	v := view{Headers: []string{"id", "name", "balance"}, Rows: [][]string{
		{"7", `=HYPERLINK("http://evil.example","refund")`, "-12.50"},
		{"8", "@SUM(1+1)", "1000.00"},
	}}
	if err := render(cmd, v); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if rows[1][1] != `'=HYPERLINK("http://evil.example","refund")` || rows[2][1] != "'@SUM(1+1)" {
		t.Errorf("formulas left live: %q", rows)
	}
	if rows[1][2] != "-12.50" || rows[0][0] != "id" {
		t.Errorf("numbers or headers changed: %q", rows)
	}
}
