package cli

import (
	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/fault"
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
	return &described{msg: admin.Describe(err), err: err}
}
