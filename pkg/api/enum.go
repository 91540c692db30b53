package api

// statusNames are the string values of a status list, for query enums.
func statusNames[S ~string](list []S) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = string(s)
	}
	return out
}
