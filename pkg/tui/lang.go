package tui

import (
	"github.com/voyage/voyage/pkg/i18n"
)

// lang is the console's language: Options.Lang when the catalogs have it,
// English otherwise.
func (m *Model) lang() string {
	switch l := i18n.Normalize(m.opts.Lang); l {
	case i18n.ZhCN, i18n.ZhTW:
		return l
	}
	return i18n.EN
}

// t is the console's text under key in its language (the terminal
// namespace of the catalogs), with {{name}} arguments as name/value pairs.
func (m *Model) t(key string, args ...any) string {
	return catalog().T(m.lang(), "terminal."+key, args...)
}

// tr is m.t as a function, for actions and views made before the text is
// drawn.
func (m *Model) tr() func(string, ...any) string { return m.t }
