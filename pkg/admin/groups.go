package admin

import (
	"context"
	"net/http"
	"net/url"

	"github.com/voyage/voyage/pkg/group"
)

const groupsPath = "/order/v2/flight/group/orders"

func (l *Local) Groups(ctx context.Context, f group.Filter) (group.Page, error) {
	return l.App.Groups.List(ctx, l.actor, f)
}

func (l *Local) GroupQueue(ctx context.Context, page, pageSize int) (group.Page, error) {
	return l.App.Groups.Queue(ctx, l.actor, page, pageSize)
}

func (l *Local) Group(ctx context.Context, id int64) (group.View, error) {
	return l.App.Groups.Get(l.read(ctx), l.actor, id)
}

func (l *Local) QuoteGroup(ctx context.Context, id int64, q group.QuoteInput) (group.View, error) {
	return l.App.Groups.Quote(ctx, l.actor, id, q)
}

func (l *Local) GroupSeats(ctx context.Context, id int64, s group.SeatsInput) (group.View, error) {
	return l.App.Groups.Seats(ctx, l.actor, id, s)
}

func (r *Remote) Groups(ctx context.Context, f group.Filter) (group.Page, error) {
	q := paging(url.Values{}, f.Page, f.PageSize)
	if f.Status != "" {
		q.Set("status", f.Status)
	}
	var out group.Page
	return out, r.call(ctx, http.MethodGet, groupsPath, q, nil, nil, &out)
}

func (r *Remote) GroupQueue(ctx context.Context, page, pageSize int) (group.Page, error) {
	var out group.Page
	return out, r.call(ctx, http.MethodGet, groupsPath+"/queue", paging(url.Values{}, page, pageSize), nil, nil, &out)
}

func (r *Remote) Group(ctx context.Context, id int64) (group.View, error) {
	var out group.View
	return out, r.call(ctx, http.MethodGet, idPath(groupsPath+"/%d", id), nil, nil, nil, &out)
}

func (r *Remote) QuoteGroup(ctx context.Context, id int64, q group.QuoteInput) (group.View, error) {
	var out group.View
	return out, r.call(ctx, http.MethodPost, idPath(groupsPath+"/%d/quote", id), nil, q, nil, &out)
}

func (r *Remote) GroupSeats(ctx context.Context, id int64, s group.SeatsInput) (group.View, error) {
	var out group.View
	return out, r.call(ctx, http.MethodPost, idPath(groupsPath+"/%d/seats", id), nil, s, nil, &out)
}
