package store

import (
	"context"
	"log/slog"
	"time"
)

// Grouper is a group insert: rows written while the previous group's
// statement runs share the next statement and commit, and each caller waits
// for its own row. A lone row is written at once, as it would be without a
// grouper, so nobody waits for company.
type Grouper[T any] struct {
	g    *Gatherer[groupReq[T]]
	name string
	// one writes a row alone, many two or more in one statement; limit
	// bounds either when called for a group.
	one   func(context.Context, T) error
	many  func(context.Context, []T) error
	limit time.Duration
}

type groupReq[T any] struct {
	row  T
	done chan error
}

// Group starts a grouper of up to max rows a statement. A group's statement
// gets a context of its own, bounded by limit: one caller giving up must not
// fail the others. Should the statement fail, each row is written alone, so
// that a bad row cannot sink the rest.
func Group[T any](name string, max int, limit time.Duration, one func(context.Context, T) error, many func(context.Context, []T) error) *Grouper[T] {
	gr := &Grouper[T]{name: name, one: one, many: many, limit: limit}
	gr.g = Gather(max, gr.run, func(r groupReq[T]) {
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		defer cancel()
		r.done <- one(ctx, r.row)
	})
	return gr
}

// Write writes row, in a group when others arrive with it. Once queued, the
// row is the group's until written: Write waits for the result even when
// ctx ends first, so a caller may reuse what the row points at as soon as
// it returns.
func (gr *Grouper[T]) Write(ctx context.Context, row T) error {
	r := groupReq[T]{row: row, done: make(chan error, 1)}
	if !gr.g.Submit(r, ctx.Done()) {
		if err := ctx.Err(); err != nil {
			return err
		}
		return gr.one(ctx, row)
	}
	return <-r.done
}

// Stop writes what is queued and ends the grouper; Write then writes alone.
func (gr *Grouper[T]) Stop() { gr.g.Stop() }

func (gr *Grouper[T]) run(group []groupReq[T]) {
	ctx, cancel := context.WithTimeout(context.Background(), gr.limit)
	defer cancel()
	if len(group) == 1 {
		group[0].done <- gr.one(ctx, group[0].row)
		return
	}
	rows := make([]T, len(group))
	for i, r := range group {
		rows[i] = r.row
	}
	if err := gr.many(ctx, rows); err != nil {
		slog.Warn("store: group insert failed, writing one by one", "table", gr.name, "rows", len(group), "err", err)
		for _, r := range group {
			r.done <- gr.one(ctx, r.row)
		}
		return
	}
	for _, r := range group {
		r.done <- nil
	}
}
