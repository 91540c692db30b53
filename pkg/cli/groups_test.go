package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/group"
)

func TestGroupCommands(t *testing.T) {
	t.Parallel()
	forEachMode(t, func(t *testing.T, dsn string, reach []string) {
		id := apptest.GroupRequest(t, apptest.Open(t, dsn))
		v := inMode(reach)
		queue := decode[group.Page](t, v(t, 0, "groups", "list", "--queue", "-o", "json"))
		if queue.Total != 1 || queue.Items[0].ID != id || queue.Items[0].Status != group.ToBeQuote {
			t.Fatalf("queue = %+v", queue)
		}
		if table := v(t, 0, "groups", "list").out; !strings.Contains(table, "to_be_quote") || !strings.Contains(table, "PEK-SHA") || !strings.Contains(table, "10/10/0") {
			t.Fatalf("table:\n%s", table)
		}
		v(t, 2, "groups", "quote", fmt.Sprint(id), "--fare", "adult=1000", "--installment", "final=18000@soon", "--yes")
		// The installments must add up to the total: a rule, nothing stored.
		v(t, 2, "groups", "quote", fmt.Sprint(id), "--fare", "adult=1000", "--fare", "child=800", "--installment", "final=100@720h", "--yes")
		q := decode[group.View](t, v(t, 0, "groups", "quote", fmt.Sprint(id), "--fare", "adult=1000.00:120", "--fare", "child=800",
			"--installment", "first=1800@96h", "--installment", "final=16200@720h", "--free-drop", "2", "--yes", "-o", "json"))
		if q.Status != group.ToBeConfirm || len(q.Quotes) != 1 || len(q.Quotes[0].Segments) == 0 || q.Total.Amount != "18000.00" || len(q.Installments) != 2 {
			t.Fatalf("quoted = %+v", q)
		}
		if shown := v(t, 0, "groups", "show", fmt.Sprint(id)).out; !strings.Contains(shown, "Installment first") || !strings.Contains(shown, "to_be_confirm") {
			t.Fatalf("show:\n%s", shown)
		}
		// Seats wait for the agency's confirmation.
		v(t, 4, "groups", "seats", fmt.Sprint(id), "--result", "granted", "--yes")
		v(t, 3, "groups", "show", "999999")
	})
}
