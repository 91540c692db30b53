package admin

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/voyage/voyage/pkg/train"
)

// TrainOrders lists train orders as the provider sees them.
func (l *Local) TrainOrders(ctx context.Context, f train.Filter) (train.Page, error) {
	return l.App.Trains.List(ctx, l.actor, f)
}

// TrainOrder is one train order with its tickets and timeline.
func (l *Local) TrainOrder(ctx context.Context, id int64) (train.View, error) {
	return l.App.Trains.Get(l.read(ctx), l.actor, id)
}

// ConfirmTrainTickets issues (or fails) a paid train order by hand. In
// process, the railway asked is this process's: the built-in simulator
// keeps its bookings in the server's memory, so against it confirm through
// the server (remote mode); failing an order works either way.
func (l *Local) ConfirmTrainTickets(ctx context.Context, id int64, r train.ConfirmTicketsRequest) (train.View, error) {
	return l.App.Trains.ConfirmTickets(ctx, l.actor, id, r)
}

// TrainOrders lists train orders through the API.
func (r *Remote) TrainOrders(ctx context.Context, f train.Filter) (train.Page, error) {
	q := paging(url.Values{}, f.Page, f.PageSize)
	for _, st := range f.Statuses {
		q.Add("status", st)
	}
	if f.Keyword != "" {
		q.Set("keyword", f.Keyword)
	}
	if f.AgencyID != 0 {
		q.Set("agencyId", strconv.FormatInt(f.AgencyID, 10))
	}
	return answer[train.Page](ctx, r, http.MethodGet, "/order/v2/train/orders", q, nil, nil)
}

// TrainOrder is one train order through the API.
func (r *Remote) TrainOrder(ctx context.Context, id int64) (train.View, error) {
	return answer[train.View](ctx, r, http.MethodGet, idPath("/order/v2/train/orders/%d", id), nil, nil, nil)
}

// ConfirmTrainTickets issues (or fails) a paid train order through the API.
func (r *Remote) ConfirmTrainTickets(ctx context.Context, id int64, req train.ConfirmTicketsRequest) (train.View, error) {
	return answer[train.View](ctx, r, http.MethodPost, idPath("/order/v2/train/orders/%d/tickets", id), nil, req, nil)
}
