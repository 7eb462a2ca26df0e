package nativeform

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/formschema"
)

// Request is one elicitation as the form shows it.
type Request struct {
	// Server is the server's title, or its name.
	Server string
	// Connection is how mcpeek reached the server: a command line or a URL.
	Connection string
	// Message is the server's message, shown as the server's words.
	Message string
	Schema  *formschema.Schema
	// Note says why mcpeek renders it natively when an app could have.
	Note string
	// Position and Total show "1 of 3" when several are pending.
	Position, Total int
}

// Options tune the form.
type Options struct {
	// Timeout cancels the elicitation when it runs out; 0 waits forever.
	Timeout time.Duration
	// Grace ignores keys typed just as the form opens (0: DefaultGrace;
	// negative: none).
	Grace time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Arguments marks a form for arguments the person gives a tool or a
	// prompt, not a server's question: its header is the Message alone,
	// and it has no decline.
	Arguments bool
	// Suggestions lets text fields show values under them as the person
	// types (Form.SetSuggestions), from the program hosting the form.
	Suggestions bool
}

// DefaultGrace is how long a form ignores keys after it opens, unless
// Options.Grace says otherwise: long enough to catch keys typed for what
// was on screen before, short enough not to be noticed.
const DefaultGrace = 400 * time.Millisecond

// Action is how the person answered.
type Action string

// Actions.
const (
	Accept  Action = "accept"
	Decline Action = "decline"
	Cancel  Action = "cancel"
)

// Result is the settled answer.
type Result struct {
	Action  Action
	Content map[string]any
	// TimedOut is set when the countdown cancelled it; Interrupted when
	// Ctrl+C did, which the program then handles as usual.
	TimedOut, Interrupted bool
}

// DoneMsg is sent once, when the form settles.
type DoneMsg struct{ Result Result }

type tickMsg struct{ id int64 }

// KeyMap is the form's own keys, beside the fields' (huh's) keys.
type KeyMap struct {
	Submit, Decline, Cancel, WholeMessage key.Binding
	// Interrupt cancels the form and interrupts the program, as Ctrl+C
	// does anywhere else.
	Interrupt key.Binding
}

// Keys are the form's keys; a program hosting forms lists them from here.
var Keys = KeyMap{
	Submit:       key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "submit")),
	Decline:      key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "decline")),
	Cancel:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	WholeMessage: key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "whole message")),
	Interrupt:    key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "cancel and quit")),
}

// ShortHelp is the form's footer.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Submit, k.Decline, k.Cancel} }

// FullHelp lists every key of the form.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Submit, k.Decline, k.Cancel, k.WholeMessage, k.Interrupt}}
}

var (
	styleFrame   = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("63")).Padding(0, 1)
	styleTitle   = lipgloss.NewStyle().Bold(true)
	styleDim     = lipgloss.NewStyle().Foreground(lipgloss.Color("245"))
	styleNote    = lipgloss.NewStyle().Foreground(lipgloss.Color("214"))
	styleMessage = lipgloss.NewStyle().Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(lipgloss.Color("240")).PaddingLeft(1)
	styleError   = lipgloss.NewStyle().Foreground(lipgloss.Color("196"))
)

var nextFormID atomic.Int64

// Form is the native elicitation form: a Bubble Tea model wrapping a huh
// form with every field on one scrollable page, mcpeek's header naming the
// server, and a footer with submit, decline, cancel and the countdown.
type Form struct {
	req    Request
	opts   Options
	id     int64
	values []*value
	leaves []*value // the values with a control: a group's fields in its place
	form   *huh.Form
	group  *huh.Group  // the form's one page
	fields []huh.Field // the controls of leaves, in order

	attempted bool // a submit failed: fields now show their errors
	wholeMsg  bool // ctrl+o: show a long message in full
	openedAt  time.Time
	deadline  time.Time
	result    *Result
	width     int
	height    int
}

// New builds the form for a request.
func New(req Request, opts Options) *Form {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Grace == 0 {
		opts.Grace = DefaultGrace
	}
	f := &Form{req: req, opts: opts, id: nextFormID.Add(1), width: 80, height: 24}
	for i := range req.Schema.Fields {
		f.values = append(f.values, newValue(&req.Schema.Fields[i]))
	}
	f.leaves = leaves(f.values)
	f.openedAt = opts.Now()
	if opts.Timeout > 0 {
		f.deadline = f.openedAt.Add(opts.Timeout)
	}
	f.build()
	return f
}

// Result returns the answer once the form has settled.
func (f *Form) Result() (Result, bool) {
	if f.result == nil {
		return Result{}, false
	}
	return *f.result, true
}

// Control names the control that renders a field: "text", "yes/no",
// "select", "multi-select", "date", "date-time", "slider", "segmented",
// "list" or "group" ("" for an unknown key).
func (f *Form) Control(key string) string {
	for _, v := range f.values {
		if v.field.Key != key {
			continue
		}
		if v.widget != widgetNone {
			return [...]string{widgetDate: "date", widgetDateTime: "date-time", widgetSlider: "slider", widgetSegmented: "segmented"}[v.widget]
		}
		return [...]string{controlInput: "text", controlConfirm: "yes/no", controlSelect: "select", controlMulti: "multi-select",
			controlList: "list", controlGroup: "group"}[v.control]
	}
	return ""
}

// Content is what accept would send now: answered fields only.
func (f *Form) Content() map[string]any { return contentOf(f.values) }

// build makes the huh form over the bound values: a control per field,
// a group's fields under a heading of the group's.
func (f *Form) build() {
	var fields, page []huh.Field
	for _, v := range f.values {
		if v.control == controlGroup {
			page = append(page, huh.NewNote().Title(v.field.Label).Description(description(v.field)))
			for _, sv := range v.subs {
				c := f.control(sv)
				fields, page = append(fields, c), append(page, c)
			}
			continue
		}
		c := f.control(v)
		fields, page = append(fields, c), append(page, c)
	}
	f.fields = fields
	if len(page) == 0 {
		page = append(page, huh.NewNote().Title("No fields").Description("The server asks only for a yes or no: submit to accept."))
	}
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithDisabled())
	km.MultiSelect.Toggle = ControlKeys.Toggle
	km.MultiSelect.SelectAll.SetKeys(ControlKeys.ToggleAll.Keys()...)
	km.MultiSelect.SelectNone.SetKeys(ControlKeys.ToggleAll.Keys()...)
	f.group = huh.NewGroup(page...)
	f.form = huh.NewForm(f.group).
		WithTheme(theme()).
		WithKeyMap(km).
		WithShowHelp(false).
		WithWidth(f.width - 2).
		WithHeight(f.formHeight())
}

func (f *Form) label(v *value) string {
	if v.field.Required {
		return v.label() + " *"
	}
	return v.label()
}

// refreshErrors recomputes each field's error after a failed submit, so
// that a field's message goes away as soon as its value is fixed. It
// returns the index of the first field with an error, or -1.
func (f *Form) refreshErrors() int {
	first := -1
	if !f.attempted {
		return first
	}
	byKey := map[string]string{}
	for _, e := range f.req.Schema.Validate(f.Content()) {
		if e.Sub != "" {
			e.Key += "\x00" + e.Sub
		}
		byKey[e.Key] = e.Message
	}
	for i, v := range f.leaves {
		v.setError(byKey[v.errorKey()])
		if first < 0 && v.status.Error != "" {
			first = i
		}
	}
	return first
}

// title is a field's label, with its error beside it.
func (f *Form) title(v *value) string {
	t := f.label(v)
	if e := v.currentError(); e != "" {
		t += "  " + styleError.Render("✗ "+e)
	}
	return t
}

func (f *Form) control(v *value) huh.Field {
	desc := description(v.field)
	title := func() string { return f.title(v) }
	switch v.widget {
	case widgetDate, widgetDateTime:
		return f.newDate(v, title)
	case widgetSlider:
		return f.newSlider(v, title)
	case widgetSegmented:
		return f.newSegmented(v, title)
	}
	switch v.control {
	case controlList:
		return f.newList(v, title)
	case controlConfirm:
		if !colour() { // huh's buttons show the choice by colour alone
			return f.newSegmented(v, title)
		}
		return huh.NewConfirm().Key(v.field.Key).TitleFunc(title, &v.status).Description(desc).
			Affirmative("Yes").Negative("No").Value(&v.yes)
	case controlSelect:
		var opts []huh.Option[int]
		if v.unanswerable() {
			opts = append(opts, huh.NewOption("(no answer)", noAnswer))
		}
		for i, o := range v.options() {
			opts = append(opts, huh.NewOption(o.Title, i+1))
		}
		return huh.NewSelect[int]().Key(v.field.Key).TitleFunc(title, &v.status).Description(desc).
			Options(opts...).Value(&v.choice)
	case controlMulti:
		var opts []huh.Option[int]
		for i, o := range v.field.Options {
			opts = append(opts, huh.NewOption(o.Title, i))
		}
		ms := huh.NewMultiSelect[int]().Key(v.field.Key).TitleFunc(title, &v.status).Description(desc).
			Options(opts...).Value(&v.picks)
		if v.field.MaxItems != nil {
			ms = ms.Limit(*v.field.MaxItems)
		}
		return ms
	}
	in := huh.NewInput().Key(v.field.Key).TitleFunc(title, &v.status).Description(desc).
		Placeholder(placeholder(v.field)).Value(&v.text)
	if v.field.MaxLength != nil && *v.field.MaxLength > 0 {
		in = in.CharLimit(*v.field.MaxLength)
	}
	return f.suggesting(v, in)
}

// Init starts the form and its countdown. The grace period starts here,
// when the form appears, not when it was built.
func (f *Form) Init() tea.Cmd {
	f.openedAt = f.opts.Now()
	return tea.Batch(f.form.Init(), f.tick())
}

func (f *Form) tick() tea.Cmd {
	if f.deadline.IsZero() {
		return nil
	}
	id := f.id
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{id} })
}

func (f *Form) settle(r Result) tea.Cmd {
	if f.result != nil {
		return nil
	}
	f.result = &r
	return func() tea.Msg { return DoneMsg{r} }
}

// Update handles keys before huh sees them: submit, decline, cancel, and
// the grace period; everything else goes to the fields.
func (f *Form) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if f.result != nil {
		return f, nil
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		f.width, f.height = msg.Width, msg.Height
		f.form = f.form.WithWidth(f.width - 2).WithHeight(f.formHeight())
	case tickMsg:
		if msg.id != f.id {
			return f, nil
		}
		if !f.opts.Now().Before(f.deadline) {
			return f, f.settle(Result{Action: Cancel, TimedOut: true})
		}
		return f, f.tick()
	case tea.KeyMsg:
		if f.opts.Now().Sub(f.openedAt) < f.opts.Grace {
			return f, nil
		}
		switch {
		case f.suggestKey(msg):
			return f, nil
		case key.Matches(msg, Keys.Interrupt):
			return f, f.settle(Result{Action: Cancel, Interrupted: true})
		case key.Matches(msg, Keys.Cancel):
			return f, f.settle(Result{Action: Cancel})
		case key.Matches(msg, Keys.Decline) && !f.opts.Arguments:
			return f, f.settle(Result{Action: Decline})
		case key.Matches(msg, Keys.Submit):
			return f, f.submit()
		case key.Matches(msg, Keys.WholeMessage):
			f.wholeMsg = !f.wholeMsg
			f.form = f.form.WithHeight(f.formHeight())
			return f, nil
		}
	}
	m, cmd := f.form.Update(msg)
	f.form = m.(*huh.Form)
	if f.form.State == huh.StateCompleted {
		return f, f.submit()
	}
	f.refreshErrors()
	return f, cmd
}

// submit accepts when the content validates; otherwise it turns on the
// per-field errors, rebuilds the page with them shown, and stays open.
func (f *Form) submit() tea.Cmd {
	content := f.Content()
	errs := f.req.Schema.Validate(content)
	if len(errs) == 0 {
		return f.settle(Result{Action: Accept, Content: content})
	}
	f.attempted = true
	first := f.refreshErrors()
	f.form = f.form.WithHeight(f.formHeight()) // the footer now counts the errors
	var cmds []tea.Cmd
	cur := 0
	if f.form.State == huh.StateNormal {
		cur = slices.Index(f.fields, f.form.GetFocusedField())
		// huh redraws a title whose binding changed on the next message
		// it gets: without one (the focus stays on a select, which has no
		// cursor blinking) the error would not show beside the field.
		_, redraw := f.form.Update(redrawMsg{})
		cmds = append(cmds, redraw)
	} else {
		// Enter on the last field completed the huh form: build it anew
		// over the same values.
		f.build()
		cmds = append(cmds, f.form.Init())
	}
	// Move the focus to the first field to fix.
	for ; cur >= 0 && cur < first; cur++ {
		cmds = append(cmds, huh.NextField)
	}
	for ; cur > first && first >= 0; cur-- {
		cmds = append(cmds, huh.PrevField)
	}
	return tea.Sequence(cmds...)
}

// redrawMsg makes huh look at the fields' bound titles anew.
type redrawMsg struct{}

// minFormHeight is the fewest lines of fields the form shows.
const minFormHeight = 3

func (f *Form) formHeight() int {
	return max(f.height-lipgloss.Height(f.header())-lipgloss.Height(f.footer())-2, minFormHeight)
}

// header is the framed header, or on a screen too short for it (and the
// footer, and a few lines of fields) a compact one without the frame.
func (f *Form) header() string {
	budget := f.height - lipgloss.Height(f.footer()) - 2 - minFormHeight
	if framed := f.framedHeader(); lipgloss.Height(framed) <= budget {
		return framed
	}
	width := max(f.width-1, 10)
	lines := []string{styleTitle.Render(ansi.Truncate(f.asker(), width, "…"))}
	if !f.opts.Arguments {
		msg := lipgloss.NewStyle().Width(width - 2).Render(formschema.Clean(f.req.Message))
		lines = append(lines, strings.Split(styleMessage.Render(msg), "\n")...)
	}
	if budget = max(budget, 1); len(lines) > budget {
		lines = lines[:budget]
		lines[budget-1] = ansi.Truncate(lines[budget-1], width-1, "") + "…"
	}
	return strings.Join(lines, "\n")
}

// asker is the header's first line: who asks.
func (f *Form) asker() string {
	if f.opts.Arguments {
		return formschema.Clean(f.req.Message)
	}
	return formschema.Clean(f.req.Server) + " is asking for input"
}

func (f *Form) framedHeader() string {
	if f.opts.Arguments {
		return styleFrame.Width(max(f.width-2, 24)).Render(styleTitle.Render(f.asker()))
	}
	var b strings.Builder
	b.WriteString(styleTitle.Render(f.asker()) + "\n")
	b.WriteString(styleDim.Render("via "+formschema.Clean(f.req.Connection)) + "\n")
	if f.req.Total > 1 {
		b.WriteString(styleDim.Render(fmt.Sprintf("%d of %d pending", f.req.Position, f.req.Total)) + "\n")
	}
	if f.req.Note != "" {
		b.WriteString(styleNote.Render(f.req.Note) + "\n")
	}
	width := max(f.width-6, 20)
	msg := lipgloss.NewStyle().Width(width - 2).Render(formschema.Clean(f.req.Message))
	lines := strings.Split(msg, "\n")
	if limit := max(f.height/4, 3); len(lines) > limit && !f.wholeMsg {
		lines = append(lines[:limit-1], styleNote.Render(fmt.Sprintf("… %d more lines: ctrl+o shows the whole message", len(lines)-limit+1)))
	}
	b.WriteString(styleMessage.Render(strings.Join(lines, "\n")))
	return styleFrame.Width(max(f.width-2, 24)).Render(b.String())
}

func (f *Form) footer() string {
	var parts []string
	if f.focusedControl() == controlMulti { // huh's help is off: its keys are named here
		for _, k := range []key.Binding{ControlKeys.Toggle, ControlKeys.ToggleAll} {
			parts = append(parts, k.Help().Key+" "+k.Help().Desc)
		}
	}
	for _, k := range Keys.ShortHelp() {
		if f.opts.Arguments && k.Help() == Keys.Decline.Help() {
			continue
		}
		parts = append(parts, k.Help().Key+" "+k.Help().Desc)
	}
	parts = append(parts, "enter next", "shift+tab back")
	line := styleDim.Width(max(f.width-1, 20)).Render(strings.Join(parts, " · "))
	var status []string
	if f.attempted {
		if n := len(f.req.Schema.Validate(f.Content())); n > 0 {
			status = append(status, styleError.Render(formschema.Plural(n, "field needs", "fields need")+" attention"))
		}
	}
	if !f.deadline.IsZero() {
		left := max(f.deadline.Sub(f.opts.Now()), 0).Round(time.Second)
		status = append(status, styleNote.Render(fmt.Sprintf("cancels in %d:%02d", int(left.Minutes()), int(left.Seconds())%60)))
	}
	if len(status) > 0 {
		line = strings.Join(status, " · ") + "\n" + line
	}
	return line
}

// focusedControl is the control of the field with the focus, if it is one
// of huh's (not a date, slider or segmented choice), else controlInput.
func (f *Form) focusedControl() control {
	if f.form == nil || f.form.State != huh.StateNormal {
		return controlInput
	}
	i := slices.Index(f.fields, f.form.GetFocusedField())
	if i < 0 || f.values[i].widget != widgetNone {
		return controlInput
	}
	return f.values[i].control
}

// View draws the header, the page of fields and the footer.
func (f *Form) View() string {
	if f.result != nil {
		return ""
	}
	return f.header() + "\n" + f.position() + "\n" + f.form.View() + "\n" + f.footer()
}

// position says which field has the focus, "field 3 of 16", when the
// fields do not all fit on the screen; otherwise "".
func (f *Form) position() string {
	if len(f.fields) < 2 || lipgloss.Height(f.group.Content()) <= f.formHeight() {
		return ""
	}
	i := slices.Index(f.fields, f.form.GetFocusedField())
	if i < 0 {
		return ""
	}
	return styleDim.Render(fmt.Sprintf("field %d of %d", i+1, len(f.fields)))
}

// Standalone runs a form as a whole program: it quits once the form settles.
func Standalone(f *Form) tea.Model { return standalone{f} }

type standalone struct{ form *Form }

func (s standalone) Init() tea.Cmd { return s.form.Init() }

func (s standalone) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(DoneMsg); ok {
		return s, tea.Quit
	}
	_, cmd := s.form.Update(msg)
	return s, cmd
}

func (s standalone) View() string { return s.form.View() }
