package cli

import (
	"os"
	"testing"
)

// TestMain runs the commands under test with the simulated suppliers as
// apptest.Open sets them for the servers it starts: answering at once,
// never failing, prices steady. A command run in-process (--db) builds its
// own app from the environment, whose simulators fail a share of calls on
// purpose (a train confirmation once failed TestTrainConfirmCommands so).
func TestMain(m *testing.M) {
	for _, k := range []string{"VOYAGE_SHOPPING_SIM_LATENCY_SCALE", "VOYAGE_SHOPPING_SIM_ERROR_RATE",
		"VOYAGE_SHOPPING_SIM_TIMEOUT_RATE", "VOYAGE_SHOPPING_SIM_VOLATILITY"} {
		if _, set := os.LookupEnv(k); !set {
			os.Setenv(k, "0")
		}
	}
	os.Exit(m.Run())
}
