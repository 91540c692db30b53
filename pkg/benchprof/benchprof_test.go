package benchprof

import (
	"testing"
	"time"
)

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

func TestCPUSince(t *testing.T) {
	cpu0 := ReadCPU()
	spin0 := ProcessCPU()
	for ProcessCPU()-spin0 < 30*time.Millisecond {
	}
	used := cpu0.Since()
	if used.Process < 30*time.Millisecond || used.Process > ProcessCPU()-cpu0.Process {
		t.Errorf("Since().Process = %v after spinning 30 ms of CPU, want at least that and only what was used since", used.Process)
	}
	if used.Machine < 0 {
		t.Errorf("Since().Machine = %v, want no negative time", used.Machine)
	}
}
