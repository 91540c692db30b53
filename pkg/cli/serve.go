package cli

import (
	"fmt"
	"io"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/demo"
)

func (r *Root) serveCmd() *cobra.Command {
	var seed bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the agency API and the portal (migrates the database first unless --no-migrate)",
		Long: `Serve the agency API and the portal (migrates the database first unless --no-migrate).

GET /healthz answers 200 while the process runs; GET /readyz answers 200 when
this instance should take traffic and 503 with a JSON reason when not
(draining, database_unreachable, migrations_behind).

On SIGTERM or SIGINT the instance drains: /readyz answers 503 at once, it
goes on accepting for http.drain_delay (default 5s) so a load balancer takes
it out, then stops accepting and stops fetching jobs, and gives the requests
in flight and the running jobs http.shutdown_grace (default 35s) to finish.
It exits 0 unless a request had to be cut off (a job still running then is
cancelled and retried elsewhere). A second signal ends it at once.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := r.config(cmd)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			// The first SIGTERM or SIGINT drains and stops gracefully
			// (http.drain_delay, http.shutdown_grace); once it came, the
			// signals' default is back, so a second one ends the process
			// at once.
			go func() {
				<-ctx.Done()
				stop()
			}()
			cfg.Runtime.Apply()
			a, err := app.New(ctx, cfg)
			if err != nil {
				return err
			}
			defer a.Close()
			if seed {
				if err := demo.Seed(ctx, a.DB, a.Site); err != nil {
					return err
				}
			}
			return a.Serve(ctx, func(addr string) {
				fmt.Fprintf(cmd.OutOrStdout(), "Voyage is running at http://%s\n", addr)
			})
		},
	}
	cmd.Flags().String("addr", "", "listen address (default 127.0.0.1:8080)")
	cmd.Flags().Bool("no-migrate", false, "do not apply pending migrations on start")
	cmd.Flags().String("metrics-addr", "", "serve Prometheus metrics at http://ADDR/metrics, apart from the public port (default: off); env VOYAGE_METRICS_ADDR")
	cmd.Flags().BoolVar(&seed, "demo", false, "seed the demo data before serving (idempotent)")
	return cmd
}

func (r *Root) demoCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "demo", Short: "Demo data"}
	seed := &cobra.Command{
		Use:     "seed",
		Short:   "Add the demo data that is missing (safe to run again; creates the database if needed)",
		Example: "  voyage demo seed --db ./var/voyage.db\n  voyage demo seed -o json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := r.config(cmd)
			if err != nil {
				return err
			}
			// The living agency's orders are booked with the simulated
			// suppliers answering at once and never failing: `make run`
			// stays quick and its seed the same every time. The server
			// started afterwards simulates them as configured.
			sim := &cfg.Shopping.Sim
			sim.LatencyScale, sim.ErrorRate, sim.TimeoutRate, sim.Volatility = 0, 0, 0, 0
			a, err := app.New(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			defer a.Close()
			if err := demo.Seed(cmd.Context(), a.DB, a.Site); err != nil {
				return err
			}
			if err := demo.SeedLiving(cmd.Context(), demo.Services{DB: a.DB, Agencies: a.Agencies, AgencyAdmin: a.AgencyAdmin,
				Ledger: a.Ledger, Shopping: a.Shopping, Orders: a.Orders, Trains: a.Trains, Groups: a.Groups}); err != nil {
				return err
			}
			all := demo.AllLogins()
			type login struct {
				Username string `json:"username"`
				Password string `json:"password"`
				Agency   string `json:"agency"`
				Role     string `json:"role"`
			}
			logins := make([]login, 0, len(all))
			for _, l := range all {
				logins = append(logins, login(l))
			}
			return printOr(cmd, struct {
				Logins []login `json:"logins"`
			}{logins}, func(out io.Writer) {
				fmt.Fprintln(out, "demo data is in place; demo logins:")
				for _, l := range all {
					fmt.Fprintf(out, "  %-16s %-16s %-26s %s\n", l.Username, l.Password, l.Agency, l.Role)
				}
			})
		},
	}
	outputFlag(seed)
	cmd.AddCommand(seed)
	return cmd
}
