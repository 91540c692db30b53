package admin

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
)

var catalog = sync.OnceValues(i18n.Load)

// Describe is an error as a person at a terminal reads it, the same words
// in-process and remote: a service error in the English catalog's text with
// its field messages and API code (an API answer arrives in those words
// already); anything else as it is.
func Describe(err error) string {
	fe, ok := fault.As(err)
	if !ok || fe.Status >= 500 {
		return err.Error()
	}
	cat, cerr := catalog()
	if cerr != nil {
		return err.Error()
	}
	fields := make(map[string]string, len(fe.Fields))
	for f, key := range fe.Fields {
		fields[f] = cat.T(i18n.EN, key)
	}
	return sentence(cat.T(i18n.EN, fe.Key, fe.Args...), fields, fe.Code)
}

// sentence is a message, its field messages in field order, and the code.
func sentence(msg string, fields map[string]string, code int) string {
	if len(fields) > 0 {
		list := make([]string, 0, len(fields))
		for f, m := range fields {
			list = append(list, f+": "+m)
		}
		sort.Strings(list)
		msg += " (" + strings.Join(list, "; ") + ")"
	}
	return fmt.Sprintf("%s [code %d]", msg, code)
}
