package cli

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
)

// describe turns a service error into the message a terminal user reads: the
// English catalog text, with the field messages of a validation error.
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
	return errors.New(fmt.Sprintf("%s [code %d]", msg, fe.Code))
}
