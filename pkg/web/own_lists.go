package web

import (
	"context"
	"net/http"
	"strconv"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/templates"
)

// ownList is one of the lists an agency keeps beside its bookings, the
// saved travellers and the member cards: their add, edit and delete forms
// answer alike, so only what tells the lists apart is named here. The
// service calls are method expressions so that a server without the
// service still answers 500 rather than failing when the routes are built.
type ownList[F, In, Item any] struct {
	s     *Server
	path  string // the list page: every success, and every failure that is not the form's, goes back there
	name  string // the list in the logs
	flash string // catalog prefix of the success flashes (created, saved, deleted)
	parse func(*http.Request) F
	input func(F) In
	form  func(Item) F // a stored item's edit form
	// load, create, update and remove are the service's calls for the list.
	load   func(Travellers, context.Context, auth.Principal, int64) (Item, error)
	create func(Travellers, context.Context, auth.Principal, In, auth.Meta) (Item, error)
	update func(Travellers, context.Context, auth.Principal, int64, In, auth.Meta) (Item, error)
	remove func(Travellers, context.Context, auth.Principal, int64, auth.Meta) error
	blank  F // the add form as the page opens
	// answer shows the list around its add form and, when not nil, an
	// item's edit form.
	answer func(w http.ResponseWriter, r *http.Request, v viewer, create F, edit *F)
	// failed puts on f the errors it came back with and the id of the item
	// it edits (0 for the add form).
	failed func(f *F, id int64, errs map[string]string, key string)
}

// Page is the list's GET; ?edit=<id> opens that item's edit form.
func (l ownList[F, In, Item]) Page(w http.ResponseWriter, r *http.Request) {
	v, ok := l.s.travellersViewer(w, r)
	if !ok {
		return
	}
	edit, ok := l.editForm(w, r, v)
	if !ok {
		return
	}
	l.answer(w, r, v, l.blank, edit)
}

// editForm is the edit form of the item ?edit=<id> names, nil without one;
// false once the answer is written.
func (l ownList[F, In, Item]) editForm(w http.ResponseWriter, r *http.Request, v viewer) (*F, bool) {
	raw := r.URL.Query().Get("edit")
	if raw == "" {
		return nil, true
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		l.s.NotFound(w, r)
		return nil, false
	}
	it, err := l.load(l.s.travellers, r.Context(), v.Principal, id)
	if err != nil {
		l.s.travellerFault(w, r, l.path, err, l.name+": load to edit")
		return nil, false
	}
	f := l.form(it)
	return &f, true
}

func (l ownList[F, In, Item]) done(w http.ResponseWriter, r *http.Request, what string) {
	l.s.redirectWithFlash(w, r, l.path, templates.Flash{Kind: "success", Key: l.flash + what})
}

// Create takes the add form.
func (l ownList[F, In, Item]) Create(w http.ResponseWriter, r *http.Request) {
	if v, ok := l.s.travellersViewer(w, r); ok {
		l.save(w, r, v, 0)
	}
}

// Update takes an item's edit form.
func (l ownList[F, In, Item]) Update(w http.ResponseWriter, r *http.Request) {
	if v, id, ok := l.s.withID(w, r, l.s.travellersViewer); ok {
		l.save(w, r, v, id)
	}
}

// save adds the posted item, or with an id saves that one's edit form.
func (l ownList[F, In, Item]) save(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	ctx, form := r.Context(), l.parse(r)
	what, flash := "create", "created"
	var err error
	if id == 0 {
		_, err = l.create(l.s.travellers, ctx, v.Principal, l.input(form), l.s.meta(r))
	} else {
		what, flash = "update", "saved"
		_, err = l.update(l.s.travellers, ctx, v.Principal, id, l.input(form), l.s.meta(r))
	}
	if err == nil {
		l.done(w, r, flash)
		return
	}
	// An edit that failed for no field of its form (the item is gone, say)
	// has no form to show again.
	if fe := fault.From(err); id != 0 && len(fe.Fields) == 0 {
		l.s.travellerFault(w, r, l.path, err, l.name+": "+what)
		return
	}
	errs, key := formErrors(ctx, l.name+": "+what, err)
	l.failed(&form, id, errs, key)
	// 200 like the other forms: the errors are shown inline, nothing saved.
	if id == 0 {
		l.answer(w, r, v, form, nil)
		return
	}
	l.answer(w, r, v, l.blank, &form)
}

// Delete removes an item, from the list's confirmation.
func (l ownList[F, In, Item]) Delete(w http.ResponseWriter, r *http.Request) {
	v, id, ok := l.s.withID(w, r, l.s.travellersViewer)
	if !ok {
		return
	}
	if err := l.remove(l.s.travellers, r.Context(), v.Principal, id, l.s.meta(r)); err != nil {
		l.s.travellerFault(w, r, l.path, err, l.name+": delete")
		return
	}
	l.done(w, r, "deleted")
}
