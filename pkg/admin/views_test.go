package admin

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/voyage/voyage/pkg/auth"
)

// The terminal side has its own view types: no file of pkg/admin imports
// the API handler package (ARCHITECTURE.md, house rules).
func TestNoAPIHandlerImport(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/voyage/voyage/pkg/api" {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}

// Remote decodes the API's JSON into pkg/admin's own types.
func TestRemoteDecodesIntoViews(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/base/v2/sub/statements":
			fmt.Fprint(w, `{"code":0,"data":{"items":[{"id":4,"agencyId":7,"from":"2026-10-01","to":"2026-10-31",`+
				`"openingBalance":{"amount":"1,000.00","currency":"CNY"},"closingBalance":{"amount":"850.50","currency":"CNY"},`+
				`"entryCount":3,"createdAt":"2026-11-01T02:00:00Z"}],"total":1,"page":1,"pageSize":20},"message":""}`)
		case "/base/v2/agencies/7/users":
			fmt.Fprint(w, `{"code":0,"data":{"items":[{"id":9,"agencyId":7,"username":"ops","role":["operator"],"status":"inactive"}],"total":1,"page":1,"pageSize":20},"message":""}`)
		case "/base/v2/agencies/7/wallet/entries":
			fmt.Fprint(w, `{"code":0,"data":{"items":[{"id":1,"type":"topup","amount":{"amount":"5.00","currency":"CNY"},"paymentReference":"R1"}],"total":1,"page":1,"pageSize":5},"message":""}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	r, err := NewRemote(srv.URL, "vk_a_b", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := r.Statements(ctx, 7, 1, 20)
	if err != nil || len(st.Items) != 1 || st.Items[0].ClosingBalance.Amount != "850.50" || st.Items[0].EntryCount != 3 || st.Items[0].To != "2026-10-31" {
		t.Errorf("statements: %+v %v", st, err)
	}
	us, err := r.Users(ctx, 7, userFilter())
	if err != nil || len(us.Items) != 1 || us.Items[0].Username != "ops" || us.Items[0].Status != "inactive" || us.Items[0].Role[0] != "operator" {
		t.Errorf("users: %+v %v", us, err)
	}
	en, err := r.Entries(ctx, 7, 1, 5)
	if err != nil || len(en.Items) != 1 || en.Items[0].Amount.Amount != "5.00" || en.Items[0].PaymentReference != "R1" {
		t.Errorf("entries: %+v %v", en, err)
	}
	if _, err := r.EnableUser(ctx, 7, 9); err != ErrNotRemote {
		t.Errorf("EnableUser remotely = %v, want ErrNotRemote", err)
	}
}

func userFilter() auth.UserFilter { return auth.UserFilter{Page: 1, PageSize: 20} }
