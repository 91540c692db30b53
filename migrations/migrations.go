// Package migrations embeds the goose SQL migrations, one folder per engine,
// with the same numbers and the same meaning in both.
package migrations

import "embed"

// FS holds sqlite/*.sql and postgres/*.sql.
//
//go:embed sqlite/*.sql postgres/*.sql
var FS embed.FS
