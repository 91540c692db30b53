package web

import (
	"context"
	"net/http"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/templates"
)

// ownList is one of the lists an agency keeps beside its bookings, the
// saved travellers and the member cards: their add, edit and delete forms
// answer alike, so only what tells the lists apart is named here.
type ownList[F any] struct {
	s     *Server
	path  string // the list page: every success, and every failure that is not the form's, goes back there
	name  string // the list in the logs
	flash string // catalog prefix of the success flashes (created, saved, deleted)
	// parse reads the posted form; id is the edited item's, 0 for a new one.
	parse  func(r *http.Request, id int64) F
	create func(ctx context.Context, p auth.Principal, f F, m auth.Meta) error
	update func(ctx context.Context, p auth.Principal, id int64, f F, m auth.Meta) error
	remove func(ctx context.Context, p auth.Principal, id int64, m auth.Meta) error
	// reshow answers the list again around the form that came back with
	// errors: the add form, or with edit the item's edit form.
	reshow func(w http.ResponseWriter, r *http.Request, v viewer, f F, errs map[string]string, key string, edit bool)
}

// item is the caller of an item's own route and the item's id; false once
// the answer is written.
func (l ownList[F]) item(w http.ResponseWriter, r *http.Request) (viewer, int64, bool) {
	v, ok := l.s.travellersViewer(w, r)
	if !ok {
		return v, 0, false
	}
	id, ok := pathID(r)
	if !ok {
		l.s.NotFound(w, r)
	}
	return v, id, ok
}

func (l ownList[F]) done(w http.ResponseWriter, r *http.Request, what string) {
	l.s.redirectWithFlash(w, r, l.path, templates.Flash{Kind: "success", Key: l.flash + what})
}

// Create takes the add form.
func (l ownList[F]) Create(w http.ResponseWriter, r *http.Request) {
	v, ok := l.s.travellersViewer(w, r)
	if !ok {
		return
	}
	form := l.parse(r, 0)
	err := l.create(r.Context(), v.Principal, form, l.s.meta(r))
	if err == nil {
		l.done(w, r, "created")
		return
	}
	errs, key := formErrors(r.Context(), l.name+": create", err)
	// 200 like the other forms: the errors are shown inline, nothing saved.
	l.reshow(w, r, v, form, errs, key, false)
}

// Update takes an item's edit form.
func (l ownList[F]) Update(w http.ResponseWriter, r *http.Request) {
	v, id, ok := l.item(w, r)
	if !ok {
		return
	}
	form := l.parse(r, id)
	err := l.update(r.Context(), v.Principal, id, form, l.s.meta(r))
	if err == nil {
		l.done(w, r, "saved")
		return
	}
	if fe := fault.From(err); len(fe.Fields) == 0 {
		l.s.travellerFault(w, r, l.path, err, l.name+": update")
		return
	}
	errs, key := formErrors(r.Context(), l.name+": update", err)
	l.reshow(w, r, v, form, errs, key, true)
}

// Delete removes an item, from the list's confirmation.
func (l ownList[F]) Delete(w http.ResponseWriter, r *http.Request) {
	v, id, ok := l.item(w, r)
	if !ok {
		return
	}
	if err := l.remove(r.Context(), v.Principal, id, l.s.meta(r)); err != nil {
		l.s.travellerFault(w, r, l.path, err, l.name+": delete")
		return
	}
	l.done(w, r, "deleted")
}
