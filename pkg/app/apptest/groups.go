package apptest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/group"
)

// GroupRequest files a group request of the demo data's Demo Travel (as
// demo-operator) through the service, PEK to SHA 60 days out for the
// default 10 adults and 10 children: a request in the provider's queue to
// quote. It answers the order's id.
func GroupRequest(t testing.TB, a *app.App) int64 {
	t.Helper()
	who := demoOperator(t, a)
	v, err := a.Groups.Request(context.Background(), who, fmt.Sprintf("apptest-group-%d", time.Now().UnixNano()), group.RequestInput{
		Journeys:   []group.Journey{{Origin: "PEK", Destination: "SHA", Date: time.Now().AddDate(0, 0, 60).Format(time.DateOnly)}},
		CabinClass: "economy", Contact: group.Contact{Name: "Li Lei", Email: "li.lei@example.com", Phone: "+86 138 0000 1111"}})
	if err != nil {
		t.Fatal(err)
	}
	return v.ID
}
