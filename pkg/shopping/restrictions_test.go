package shopping

import (
	"testing"

	"github.com/voyage/voyage/pkg/supplier"
)

// TestMergeRestrictionsKeepsIdentityDocuments: a solution of several
// tickets needs identity documents when any of its tickets does, whichever
// comes first.
func TestMergeRestrictionsKeepsIdentityDocuments(t *testing.T) {
	t.Parallel()
	need, free := supplier.Restrictions{IdentityDocumentsRequired: true}, supplier.Restrictions{}
	tests := []struct {
		name        string
		first, next supplier.Restrictions
		want        bool
	}{
		{"neither", free, free, false},
		{"first ticket", need, free, true},
		{"second ticket", free, need, true},
		{"both", need, need, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mergeRestrictions(mergeRestrictions(supplier.Restrictions{}, tt.first, true), tt.next, false)
			if got.IdentityDocumentsRequired != tt.want {
				t.Errorf("IdentityDocumentsRequired = %v, want %v", got.IdentityDocumentsRequired, tt.want)
			}
		})
	}
}
