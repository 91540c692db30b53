package tui

import (
	"context"
	"strings"
	"sync/atomic"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/voyage/voyage/pkg/admin"
)

// stage is where an action's form is.
type stage int

const (
	editing    stage = iota // typing the fields
	checking                // the preview is on its way
	confirming              // the plan is shown: y posts, n cancels
	posting                 // the change is on its way; it cannot be left now
	done                    // the result is shown
)

// field is one labelled input of a form.
type field struct {
	label    string
	optional bool
	input    textinput.Model
}

// action is one change behind a form and a confirmation: fill the fields,
// see what would change (check, which may ask the backend for a dry run),
// then confirm to post it. check and post run in tea.Cmds, on the values
// the form had when it was submitted; they capture everything else they
// need (the agency, the idempotency key) when the action is made, so that a
// retry posts exactly the same request.
type action struct {
	id       int
	title    string
	question string // asked on the confirmation, e.g. "Post this top-up?"
	fields   []field
	focus    int
	stage    stage
	err      string
	plan     []string // what would change, shown on the confirmation
	result   []string // what changed, shown when done
	values   []string // the values checked and confirmed
	// tr is the console's words (Model.openAction sets it; English when
	// unset).
	tr    func(key string, args ...any) string
	check func(ctx context.Context, values []string) ([]string, error)
	post  func(ctx context.Context, values []string) (result []string, status string, err error)
}

// Messages of an action's steps, tagged with its id so that the answer to a
// form that was closed meanwhile is dropped.
type (
	checkedMsg struct {
		id   int
		plan []string
		err  error
	}
	postedMsg struct {
		id     int
		result []string
		status string
		err    error
	}
)

// name is the field's label as the form shows it.
func (f field) name(t func(string, ...any) string) string {
	if f.optional {
		return t("form.optional", "label", f.label)
	}
	return f.label
}

// t is a word of the form in the console's language.
func (a *action) t(key string, args ...any) string {
	if a.tr == nil {
		return catalog().T("en", "terminal."+key, args...)
	}
	return a.tr(key, args...)
}

// openCmd opens the action: its first field, or, when it has none (a
// confirmation only), its plan at once.
func (a *action) openCmd(ctx context.Context) tea.Cmd {
	if len(a.fields) == 0 {
		return a.submit(ctx)
	}
	return a.open()
}

func newField(label, placeholder string, optional bool) field {
	in := textinput.New()
	in.Prompt = "> "
	in.Placeholder = placeholder
	in.CharLimit = 200
	// A blinking cursor repaints the screen twice a second for nothing.
	in.Cursor.SetMode(cursor.CursorStatic)
	return field{label: label, optional: optional, input: in}
}

// open focuses the first field.
func (a *action) open() tea.Cmd {
	a.focus = 0
	return a.focusField()
}

func (a *action) focusField() tea.Cmd {
	var cmd tea.Cmd
	for i := range a.fields {
		if i == a.focus {
			cmd = a.fields[i].input.Focus()
		} else {
			a.fields[i].input.Blur()
		}
	}
	return cmd
}

func (a *action) inputValues() []string {
	out := make([]string, len(a.fields))
	for i, f := range a.fields {
		out[i] = strings.TrimSpace(f.input.Value())
	}
	return out
}

// update handles a key on the action. closed tells the console to close it
// with a status message (empty: nothing to say).
func (a *action) update(ctx context.Context, k keyMap, msg tea.KeyMsg) (cmd tea.Cmd, closed bool, status string) {
	switch a.stage {
	case editing:
		if len(a.fields) == 0 {
			// A confirmation whose check failed: only leaving it is left.
			if key.Matches(msg, k.Cancel) || key.Matches(msg, k.Apply) {
				return nil, true, a.t("form.cancelled")
			}
			return nil, false, ""
		}
		switch {
		case key.Matches(msg, k.Cancel):
			return nil, true, a.t("form.cancelled")
		case key.Matches(msg, k.Apply):
			if a.focus < len(a.fields)-1 {
				a.focus++
				return a.focusField(), false, ""
			}
			return a.submit(ctx), false, ""
		case key.Matches(msg, k.NextField):
			a.focus = (a.focus + 1) % len(a.fields)
			return a.focusField(), false, ""
		case key.Matches(msg, k.PrevField):
			a.focus = (a.focus + len(a.fields) - 1) % len(a.fields)
			return a.focusField(), false, ""
		}
		var cmd tea.Cmd
		a.fields[a.focus].input, cmd = a.fields[a.focus].input.Update(msg)
		return cmd, false, ""
	case checking:
		if key.Matches(msg, k.Cancel) {
			// The preview changes nothing: stop waiting for it.
			a.stage = editing
			a.id = nextID()
			return a.focusField(), false, ""
		}
	case confirming:
		switch {
		case key.Matches(msg, k.Yes):
			a.stage, a.err = posting, ""
			return a.postCmd(ctx), false, ""
		case key.Matches(msg, k.No):
			return nil, true, a.t("form.cancelled")
		case key.Matches(msg, k.Edit) && len(a.fields) > 0:
			a.stage, a.err = editing, ""
			return a.focusField(), false, ""
		}
	case done:
		if key.Matches(msg, k.Close) {
			return nil, true, ""
		}
	}
	return nil, false, ""
}

// submit checks the required fields and asks for the plan.
func (a *action) submit(ctx context.Context) tea.Cmd {
	values := a.inputValues()
	for i, f := range a.fields {
		if !f.optional && values[i] == "" {
			a.err = a.t("form.required", "label", f.label)
			a.focus = i
			return a.focusField()
		}
	}
	a.values, a.stage, a.err = values, checking, ""
	id, check := a.id, a.check
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, callTimeout)
		defer cancel()
		plan, err := check(ctx, values)
		return checkedMsg{id: id, plan: plan, err: err}
	}
}

func (a *action) postCmd(ctx context.Context) tea.Cmd {
	id, post, values := a.id, a.post, a.values
	return func() tea.Msg {
		// A post that times out may still have gone through; the retry
		// the confirmation offers is the same request (a top-up under the
		// same idempotency key, so it is not credited twice).
		ctx, cancel := context.WithTimeout(ctx, callTimeout)
		defer cancel()
		result, status, err := post(ctx, values)
		return postedMsg{id: id, result: result, status: status, err: err}
	}
}

// checked takes the plan: on an error the form is edited again, showing
// it; otherwise the plan waits for a confirmation.
func (a *action) checked(msg checkedMsg) tea.Cmd {
	if msg.err != nil {
		a.stage, a.err = editing, admin.Describe(msg.err)
		return a.focusField()
	}
	a.stage, a.plan = confirming, msg.plan
	for i := range a.fields {
		a.fields[i].input.Blur()
	}
	return nil
}

// posted takes the outcome. A failure stays on the confirmation: trying
// again posts the very same request (for a top-up, the same idempotency
// key), so a post that did go through before is never made twice.
func (a *action) posted(msg postedMsg) {
	if msg.err != nil {
		a.stage, a.err = confirming, admin.Describe(msg.err)
		return
	}
	a.stage, a.result = done, msg.result
}

// help is the keys that apply at the action's stage.
func (a *action) help(k keyMap) []key.Binding {
	switch a.stage {
	case editing:
		return []key.Binding{k.Apply, k.NextField, k.PrevField, k.Cancel}
	case checking:
		return []key.Binding{k.Cancel}
	case confirming:
		return []key.Binding{k.Yes, k.No, k.Edit}
	case done:
		return []key.Binding{k.Close}
	}
	return nil
}

// view draws the action in w cells by at most h lines.
func (a *action) view(st styles, w, h int) []string {
	title := "─ " + a.title + " "
	lines := []string{st.Title.Render(fit(title+strings.Repeat("─", max(0, w-lipgloss.Width(title))), w))}
	label := 0
	for _, f := range a.fields {
		label = max(label, lipgloss.Width(f.name(a.t))+2)
	}
	label = min(label, w/2)
	switch a.stage {
	case editing, checking:
		for i := range a.fields {
			f := &a.fields[i]
			name := f.name(a.t)
			f.input.Width = max(1, w-label-2-lipgloss.Width(f.input.Prompt)-1)
			mark := "  "
			if i == a.focus && a.stage == editing {
				mark = "> "
			}
			lines = append(lines, mark+st.Label.Render(fit(name, label))+f.input.View())
		}
		if a.stage == checking {
			lines = append(lines, st.Muted.Render(a.t("form.checking")))
		}
	case confirming, posting:
		for _, l := range a.plan {
			lines = append(lines, wrap(l, w)...)
		}
		switch {
		case a.stage == posting:
			lines = append(lines, st.Muted.Render(a.t("form.posting")))
		case a.err != "":
			lines = append(lines, st.Key.Render(fit(a.t("form.retry")+" "+a.t("form.yesNo"), w)))
		default:
			lines = append(lines, st.Key.Render(fit(a.question+" "+a.t("form.yesNo"), w)))
		}
	case done:
		for _, l := range a.result {
			lines = append(lines, wrap(l, w)...)
		}
		lines = append(lines, st.Muted.Render(fit(a.t("form.close"), w)))
	}
	if a.err != "" {
		for _, l := range wrap(a.t("form.error", "error", a.err), w) {
			lines = append(lines, st.Error.Render(l))
		}
	}
	if len(lines) > h && h > 0 {
		// Keep the title and the end (the prompt and the error).
		lines = append(lines[:1], lines[len(lines)-(h-1):]...)
	}
	return lines
}

var actionIDs atomic.Int64

// nextID is a fresh action id.
func nextID() int { return int(actionIDs.Add(1)) }
