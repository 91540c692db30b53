package cli

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestExamplesAreAccepted: every command line in every command's Example
// is one the command accepts: it names that command, its flags exist and
// parse, its arguments and required flags are there, and a flag that takes
// a set of values (--status, --format, --result…) is given one of them
// (`orders list --status ticketed` was documented and refused). A rule over
// every command, so an example added later is held to it too.
func TestExamplesAreAccepted(t *testing.T) {
	t.Parallel()
	var walk func(c *cobra.Command)
	lines := 0
	walk = func(c *cobra.Command) {
		for _, line := range exampleLines(c.Example) {
			lines++
			if err := checkExample(c.CommandPath(), line); err != nil {
				t.Errorf("%s: example %q: %v", c.CommandPath(), line, err)
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(New().Cmd)
	if lines < 50 {
		t.Errorf("checked %d example lines: the examples were not found", lines)
	}
	// The rule refuses what it should.
	for _, bad := range []struct{ path, line string }{
		{"voyage orders list", "voyage orders list --status ticketed"},
		{"voyage orders list", "voyage orders list --stat issued"},
		{"voyage agency block", "voyage agency block"},
		{"voyage orders list", "voyage orders show 12"},
		{"voyage statements export", "voyage statements export --all --from 2026-11-01 --to 2026-11-30 --format doc"},
		{"voyage user create", "voyage user create --agency 222 --username a --email a@b.example --role pilot"},
	} {
		if checkExample(bad.path, bad.line) == nil {
			t.Errorf("%q accepted as an example of %s", bad.line, bad.path)
		}
	}
}

// exampleLines are the command lines of an Example: comments dropped,
// continued lines (ending in \) joined.
func exampleLines(example string) []string {
	var out []string
	cur := ""
	for _, l := range strings.Split(example, "\n") {
		l = strings.TrimSpace(l)
		if cur == "" && (l == "" || strings.HasPrefix(l, "#")) {
			continue
		}
		if more, ok := strings.CutSuffix(l, "\\"); ok {
			cur += more + " "
			continue
		}
		out = append(out, cur+l)
		cur = ""
	}
	return out
}

// checkExample runs line through a fresh command tree's parser and checks,
// as cobra would before running it, without running it.
func checkExample(path, line string) error {
	words, err := shellWords(line)
	if err != nil {
		return err
	}
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
		words = words[1:] // VAR=value before the command
	}
	if len(words) == 0 || words[0] != "voyage" {
		return fmt.Errorf("does not start with voyage")
	}
	root := New().Cmd
	c, rest, err := root.Find(words[1:])
	if err != nil {
		return err
	}
	if c.CommandPath() != path {
		return fmt.Errorf("runs %s", c.CommandPath())
	}
	if err := c.ParseFlags(rest); err != nil {
		return err
	}
	if err := c.ValidateArgs(c.Flags().Args()); err != nil {
		return err
	}
	if err := c.ValidateRequiredFlags(); err != nil {
		return err
	}
	if err := c.ValidateFlagGroups(); err != nil {
		return err
	}
	var bad error
	c.Flags().Visit(func(f *pflag.Flag) {
		choices := choicesOf(f)
		if choices == nil || bad != nil {
			return
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for _, v := range values {
			if !slices.Contains(choices, v) {
				bad = fmt.Errorf("--%s %s is not one of %v", f.Name, v, choices)
			}
		}
	})
	return bad
}

// shellWords splits a command line as a POSIX shell does for the quoting
// examples use: spaces, '…' and "…".
func shellWords(line string) ([]string, error) {
	var out []string
	var cur strings.Builder
	in, quote := false, rune(0)
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case (r == '>' || r == '|') && !in:
			return out, nil // a redirection or pipe: the command ends here
		case r == ' ' || r == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed quote")
	}
	if in {
		out = append(out, cur.String())
	}
	return out, nil
}

// TestEveryYesHasY: every command that takes --yes takes -y for it, and
// every command that asks before it changes something can be shown what it
// would do (--dry-run) except the group steps, whose check is the step.
func TestEveryYesHasY(t *testing.T) {
	t.Parallel()
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		if f := c.LocalFlags().Lookup("yes"); f != nil {
			n++
			if f.Shorthand != "y" {
				t.Errorf("%s: --yes has no -y", c.CommandPath())
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(New().Cmd)
	if n < 10 {
		t.Errorf("%d commands take --yes, want at least the 10 that change money, access, keys, users, rates and orders", n)
	}
	for _, path := range []string{"agency block", "agency unblock", "apikey revoke", "user disable", "rates set", "credit set", "funds add"} {
		c, _, err := New().Cmd.Find(strings.Fields(path))
		if err != nil || c.LocalFlags().Lookup("dry-run") == nil || c.LocalFlags().Lookup("yes") == nil {
			t.Errorf("%s: no --dry-run and --yes (%v)", path, err)
		}
	}
}
