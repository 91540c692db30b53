package cli

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/train"
)

// TestTrainConfirmCommands: the provider issues a manual-mode train order
// through the server, another in-process (the railway's bookings are in the
// database, not in the server that booked them), and fails a third
// in-process; they show in the list.
func TestTrainConfirmCommands(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			dsn := seededDB(t, string(d))
			a := apptest.Open(t, dsn)
			srv := httptest.NewServer(a.Handler)
			t.Cleanup(srv.Close)
			res := execute(t, nil, "apikey", "create", "--provider", "--name", "cli-train", "--role", auth.RoleSuperUser, "-o", "json", "--db", dsn)
			if res.code != 0 {
				t.Fatalf("provider key: %+v", res)
			}
			remote := []string{"--server", srv.URL, "--api-key", decode[auth.NewAPIKey](t, res).Key}
			local := []string{"--db", dsn}
			v := func(t *testing.T, code int, args ...string) result {
				t.Helper()
				res := execute(t, nil, args...)
				if res.code != code {
					t.Fatalf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", args, res.code, code, res.out, res.err)
				}
				return res
			}
			first, second, third := apptest.ManualTrainOrder(t, a), apptest.ManualTrainOrder(t, a), apptest.ManualTrainOrder(t, a)
			for _, reach := range [][]string{remote, local} {
				list := decode[train.Page](t, v(t, 0, append([]string{"orders", "train", "list", "--status", "proceeding", "-o", "json"}, reach...)...))
				if list.Total != 3 {
					t.Fatalf("proceeding train orders: %+v", list)
				}
			}
			dry := v(t, 0, append([]string{"orders", "train", "confirm", fmt.Sprint(first), "--dry-run"}, remote...)...)
			if !strings.Contains(dry.err+dry.out, "dry run") {
				t.Errorf("dry run: %+v", dry)
			}
			done := decode[train.View](t, v(t, 0, append([]string{"orders", "train", "confirm", fmt.Sprint(first), "--yes", "-o", "json"}, remote...)...))
			if done.Status != train.Issued || len(done.Tickets) != 1 || done.Tickets[0].Seat == "" {
				t.Fatalf("confirmed: %+v", done)
			}
			// Issued already: nothing left to confirm.
			if res := execute(t, nil, append([]string{"orders", "train", "confirm", fmt.Sprint(first), "--yes"}, remote...)...); res.code == 0 {
				t.Errorf("confirming an issued order succeeded: %+v", res)
			}
			failed := decode[train.View](t, v(t, 0, append([]string{"orders", "train", "confirm", fmt.Sprint(second), "--fail", "--remark", "sold at the counter", "--yes", "-o", "json"}, local...)...))
			if failed.Status != train.FailedReimbursed {
				t.Fatalf("failed: %+v", failed)
			}
			// In-process, with the ticket typed by hand: a malformed --ticket
			// is a usage error, a bad coach the service's message; neither
			// changes the order.
			thirdPax := decode[train.View](t, v(t, 0, append([]string{"orders", "train", "show", fmt.Sprint(third), "-o", "json"}, local...)...)).Passengers[0].ID
			if res := execute(t, nil, append([]string{"orders", "train", "confirm", fmt.Sprint(third), "--ticket", "05/12F", "--yes"}, local...)...); res.code == 0 || !strings.Contains(res.err, "PASSENGER=COACH/SEAT/NUMBER") {
				t.Errorf("malformed --ticket: %+v", res)
			}
			if res := execute(t, nil, append([]string{"orders", "train", "confirm", fmt.Sprint(third), "--ticket", fmt.Sprintf("%d=5A/12F/E123456789", thirdPax), "--yes"}, local...)...); res.code == 0 || !strings.Contains(res.err, "Coach") {
				t.Errorf("bad coach: %+v", res)
			}
			local3 := decode[train.View](t, v(t, 0, append([]string{"orders", "train", "confirm", fmt.Sprint(third), "--ticket", fmt.Sprintf("%d=7/03D/Z123456789", thirdPax), "--yes", "-o", "json"}, local...)...))
			if local3.Status != train.Issued || len(local3.Tickets) != 1 || local3.Tickets[0].Number != "Z123456789" || local3.Tickets[0].Coach != "07" || local3.Tickets[0].Seat != "03D" {
				t.Fatalf("confirmed in-process with a typed ticket: %+v", local3)
			}
			if help := v(t, 0, "orders", "train", "confirm", "--help"); !strings.Contains(help.out, "--ticket") || !strings.Contains(help.out, "1=05/12F/E123456789") {
				t.Errorf("help: %s", help.out)
			}
			shown := v(t, 0, append([]string{"orders", "train", "show", fmt.Sprint(first)}, local...)...)
			if !strings.Contains(shown.out, "issued") || !strings.Contains(shown.out, done.Tickets[0].Number) {
				t.Errorf("show: %s", shown.out)
			}
		})
	}
}
