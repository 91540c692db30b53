package docs

import "encoding/json"

func detailValue(detail, key string) string {
	var m map[string]string
	if json.Unmarshal([]byte(detail), &m) != nil {
		return ""
	}
	return m[key]
}
