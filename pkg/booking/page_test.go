package booking

import (
	"reflect"
	"testing"

	"github.com/voyage/voyage/pkg/fault"
)

type tstatus string

func TestCounts(t *testing.T) {
	all := []tstatus{"a", "b", "c"}
	m := map[string]int{"a": 2, "c": 5}
	cases := []struct {
		name  string
		asked []string
		want  []StatusCount[tstatus]
	}{
		{"none asked: every status in the line's order, zeros included", nil,
			[]StatusCount[tstatus]{{"a", 2}, {"b", 0}, {"c", 5}}},
		{"asked: in the order asked", []string{"c", "a"},
			[]StatusCount[tstatus]{{"c", 5}, {"a", 2}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Counts(all, c.asked, m)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Counts(%v) = %v, %v; want %v", c.asked, got, err, c.want)
			}
		})
	}
	_, err := Counts(all, []string{"a", "z"}, m)
	if fe := fault.From(err); fe.Fields["status"] != "booking.error.status" {
		t.Fatalf("a status not the line's: %v, want the status field error", err)
	}
}

func TestPageOf(t *testing.T) {
	p := PageOf(Paging{Page: 2, Size: 3}, 7, []int{4, 5, 6}, func(i int) string { return string(rune('a' + i)) })
	want := Page[string]{Items: []string{"e", "f", "g"}, Total: 7, Page: 2, PageSize: 3}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("PageOf = %+v, want %+v", p, want)
	}
	if empty := PageOf(Paging{Page: 1, Size: 20}, 0, []int(nil), func(int) string { return "" }); empty.Items == nil {
		t.Fatal("an empty page lists no items as [], not null")
	}
}
