package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
)

// described is a service error told the way a terminal user reads it, still
// carrying the fault so that exitCode can map it.
type described struct {
	msg string
	err error
}

func (e *described) Error() string { return e.msg }
func (e *described) Unwrap() error { return e.err }

// describe turns a service error into the message a terminal user reads: the
// English catalog text, with the field messages of a validation error and
// the API code. An error answer of a remote server is already in those
// words.
func describe(err error) error {
	fe, ok := fault.As(err)
	if !ok || fe.Status >= 500 {
		return err
	}
	cat, cerr := i18n.Load()
	if cerr != nil {
		return err
	}
	msg := cat.T(i18n.EN, fe.Key, fe.Args...)
	if len(fe.Fields) > 0 {
		fields := make([]string, 0, len(fe.Fields))
		for f, key := range fe.Fields {
			fields = append(fields, f+": "+cat.T(i18n.EN, key))
		}
		sort.Strings(fields)
		msg += " (" + strings.Join(fields, "; ") + ")"
	}
	return &described{msg: fmt.Sprintf("%s [code %d]", msg, fe.Code), err: err}
}
