// Command voyage is the Voyage binary: the agency API and portal (serve), and
// the admin commands.
package main

import (
	"context"
	"os"

	"github.com/voyage/voyage/pkg/cli"
)

func main() {
	os.Exit(cli.New().Execute(context.Background()))
}
