package app

import (
	"fmt"
	"time"

	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/supplier/rail/railsim"
	"github.com/voyage/voyage/pkg/supplier/sim"
	"github.com/voyage/voyage/pkg/train"
)

// buildTrains wires the simulated China Railway and the train service. The
// rail simulator follows the flight simulators' knobs (seed, latency scale,
// error, time-out and volatility shares).
func (a *App) buildTrains() error {
	// The railway's bookings and seats are in the database, as the flight
	// simulators' are: every instance and a restarted server see them.
	sup, err := RailSim(a.Cfg.Shopping.Sim, sim.NewSQLRecords(a.DB))
	if err != nil {
		return err
	}
	a.Trains = train.New(train.Options{Deps: a.lineDeps(), Supplier: sup, Stations: sup})
	return nil
}

// RailSim builds the simulated China Railway from the simulator settings,
// keeping its bookings in records (in memory when nil).
func RailSim(c config.SimConfig, records sim.Records) (*railsim.Supplier, error) {
	rate := func(v float64) float64 {
		switch {
		case v < 0:
			return 0 // the simulator's default
		case v == 0:
			return railsim.Off
		}
		return v
	}
	cfg := railsim.Config{Seed: c.Seed, ErrorRate: rate(c.ErrorRate), TimeoutRate: rate(c.TimeoutRate), Volatility: rate(c.Volatility),
		Records: records}
	if c.LatencyScale <= 0 {
		cfg.Latency, cfg.LatencyJitter = railsim.Off, railsim.Off
	} else {
		cfg.Latency = time.Duration(float64(railsim.DefaultLatency) * c.LatencyScale)
		cfg.LatencyJitter = time.Duration(float64(railsim.DefaultJitter) * c.LatencyScale)
	}
	s, err := railsim.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("app: simulated railway: %w", err)
	}
	return s, nil
}
