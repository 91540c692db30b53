package benchprof

import "testing"

func TestProfilePath(t *testing.T) {
	for _, c := range []struct{ pattern, name, want string }{
		{"", "BenchmarkTransfers", ""},
		{"/tmp/cpu.prof", "BenchmarkTransfers/postgres", "/tmp/cpu.prof"},
		{"/tmp/%s.prof", "BenchmarkTransfers/postgres/writers=16/accounts=1000", "/tmp/BenchmarkTransfers_postgres_writers=16_accounts=1000.prof"},
		{"/tmp/%s.prof", "BenchmarkTransfers/postgres/writers=16/accounts=1000/group-commit",
			"/tmp/BenchmarkTransfers_postgres_writers=16_accounts=1000_group-commit.prof"},
	} {
		if got := profilePath(c.pattern, c.name); got != c.want {
			t.Errorf("profilePath(%q, %q) = %q, want %q", c.pattern, c.name, got, c.want)
		}
	}
}
