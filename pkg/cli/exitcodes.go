package cli

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/fault"
)

// Process exit codes of the voyage command, for scripts.
const (
	ExitOK           = 0 // done
	ExitError        = 1 // anything else
	ExitUsage        = 2 // bad arguments or flags, or input the services refused as invalid
	ExitNotFound     = 3 // no such agency, user, key… (fault 100004)
	ExitConflict     = 4 // conflict, e.g. an idempotency key reused with other figures (fault 100009)
	ExitInsufficient = 5 // insufficient balance (fault 300001)
)

// usageError marks a mistake in the command line itself.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErr(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

// flagError is a cobra FlagErrorFunc: a flag that does not parse is a usage
// error.
func flagError(_ *cobra.Command, err error) error { return usageErr(err) }

// args wraps a cobra argument validator so that its complaint is a usage
// error.
func args(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, a []string) error { return usageErr(v(cmd, a)) }
}

// cobraUsage are the beginnings of the errors cobra itself returns for a bad
// command line (those not passed through flagError or args).
var cobraUsage = []string{
	"unknown command", "unknown flag", "unknown shorthand flag", "required flag(s)", "flag needs an argument",
	"bad flag syntax", "invalid argument", "accepts ", "requires at least", "requires at most", "requires exactly",
	"if any flags in the group", "none of the others can be", "at least one of the flags",
}

// exitCode maps an error returned by a command to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ue usageError
	if errors.As(err, &ue) {
		return ExitUsage
	}
	switch admin.Code(err) {
	case fault.CodeValidation, fault.CodeBodyTooLarge:
		return ExitUsage
	case fault.CodeNotFound:
		return ExitNotFound
	case fault.CodeConflict:
		return ExitConflict
	case fault.CodeInsufficientFund:
		return ExitInsufficient
	}
	msg := err.Error()
	for _, p := range cobraUsage {
		if strings.HasPrefix(msg, p) {
			return ExitUsage
		}
	}
	return ExitError
}
