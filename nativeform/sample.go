package nativeform

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/textclean"
)

// SampleRequest is a sampling request as the sample form shows it: the
// server asks for a model's reply, and the person writes it.
type SampleRequest struct {
	// Server is the server's title, or its name; Connection is how mcpeek
	// reached it.
	Server, Connection string
	// Transcript is the request worded for a person: the system prompt,
	// the messages with their roles, and what the server asks of the
	// model. The form shows it in a scrolling box.
	Transcript string
	// Model is the model name the form starts with.
	Model string
	// Position and Total show "1 of 3 pending" when several are.
	Position, Total int
}

// StopReasons are the stop reasons a reply may give; the first is the
// default.
var StopReasons = []string{"endTurn", "stopSequence", "maxTokens"}

// Reject is a sampling request refused.
const Reject Action = "reject"

// SampleResult is the settled answer to a sampling request.
type SampleResult struct {
	// Action is Accept (reply with Text, Model and StopReason), Reject or
	// Cancel.
	Action                  Action
	Text, Model, StopReason string
	// TimedOut is set when the countdown cancelled it; Interrupted when
	// Ctrl+C did.
	TimedOut, Interrupted bool
}

// SampleDoneMsg is sent once, when a sample form settles.
type SampleDoneMsg struct{ Result SampleResult }

// SampleKeyMap is the sample form's own keys, beside its fields' keys.
type SampleKeyMap struct {
	Submit, Reject, Cancel, NewLine key.Binding
	// ScrollUp and ScrollDown page through the request.
	ScrollUp, ScrollDown key.Binding
	// Interrupt cancels the form and interrupts the program.
	Interrupt key.Binding
}

// SampleKeys are the sample form's keys; a program hosting the form lists
// them from here.
var SampleKeys = SampleKeyMap{
	Submit:     key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "submit")),
	Reject:     key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "reject")),
	Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	NewLine:    key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"), key.WithHelp("ctrl+j", "new line")),
	ScrollUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll the request up")),
	ScrollDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdown", "scroll the request down")),
	Interrupt:  key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "cancel and quit")),
}

// ShortHelp is the sample form's footer.
func (k SampleKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Submit, k.Reject, k.Cancel, k.NewLine}
}

// FullHelp lists every key of the sample form.
func (k SampleKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Submit, k.Reject, k.Cancel, k.NewLine, k.ScrollUp, k.ScrollDown, k.Interrupt}}
}

// maxTranscript bounds the text of a request the form holds (bytes): a
// huge request shows a preview, not a huge wrap.
const maxTranscript = 64 << 10

// replyLines is the height of the reply's text area.
const replyLines = 3

// SampleForm is the sampling form: the request in a scrolling box under
// mcpeek's header naming the server and the connection, then the reply
// text, the model name and the stop reason, with submit, reject, cancel
// and the countdown as in the elicitation form.
type SampleForm struct {
	req  SampleRequest
	opts Options
	id   int64

	text, model, stop string
	form              *huh.Form
	group             *huh.Group
	request           viewport.Model // the transcript, wrapped
	transcript        string         // cleaned and bounded

	openedAt, deadline time.Time
	result             *SampleResult
	width, height      int
}

// NewSample builds the form for a sampling request.
func NewSample(req SampleRequest, opts Options) *SampleForm {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Grace == 0 {
		opts.Grace = DefaultGrace
	}
	f := &SampleForm{req: req, opts: opts, id: nextFormID.Add(1), model: req.Model, stop: StopReasons[0], width: 80, height: 24}
	f.transcript = strings.TrimRight(formschema.Clean(req.Transcript), "\n")
	if head := textclean.Cut(f.transcript, maxTranscript, textclean.InBytes(), textclean.Marker("")); len(head) < len(f.transcript) {
		f.transcript = head + fmt.Sprintf("\n… (%d more bytes)", len(f.transcript)-len(head))
	}
	f.openedAt = opts.Now()
	if opts.Timeout > 0 {
		f.deadline = f.openedAt.Add(opts.Timeout)
	}
	f.build()
	f.layout()
	return f
}

func (f *SampleForm) build() {
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithDisabled())
	km.Text.Editor = key.NewBinding(key.WithDisabled()) // no external editor over the screen
	km.Text.NewLine = SampleKeys.NewLine
	reply := huh.NewText().Key("reply").Title("Reply").Lines(replyLines).CharLimit(0).ExternalEditor(false).Value(&f.text)
	model := huh.NewInput().Key("model").Title("Model ").Inline(true).Value(&f.model)
	var opts []huh.Option[string]
	for _, r := range StopReasons {
		opts = append(opts, huh.NewOption(r, r))
	}
	stop := huh.NewSelect[string]().Key("stopReason").Title("Stop reason ").Inline(true).Options(opts...).Value(&f.stop)
	f.group = huh.NewGroup(reply, model, stop)
	f.form = huh.NewForm(f.group).WithKeyMap(km).WithShowHelp(false).WithWidth(f.width - 2)
}

// Result returns the answer once the form has settled.
func (f *SampleForm) Result() (SampleResult, bool) {
	if f.result == nil {
		return SampleResult{}, false
	}
	return *f.result, true
}

// Init starts the form and its countdown; the grace period starts here.
// A form shown again (after another request was shown in its place) keeps
// what was typed and its deadline.
func (f *SampleForm) Init() tea.Cmd {
	f.openedAt = f.opts.Now()
	return tea.Batch(f.form.Init(), f.tick())
}

func (f *SampleForm) tick() tea.Cmd {
	if f.deadline.IsZero() {
		return nil
	}
	id := f.id
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{id} })
}

func (f *SampleForm) settle(r SampleResult) tea.Cmd {
	if f.result != nil {
		return nil
	}
	f.result = &r
	return func() tea.Msg { return SampleDoneMsg{r} }
}

func (f *SampleForm) accept() tea.Cmd {
	return f.settle(SampleResult{Action: Accept, Text: f.text, Model: strings.TrimSpace(f.model), StopReason: f.stop})
}

// Update handles the form's keys before huh sees them: submit, reject,
// cancel, scrolling the request, and the grace period.
func (f *SampleForm) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if f.result != nil {
		return f, nil
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		f.width, f.height = msg.Width, msg.Height
		f.form = f.form.WithWidth(f.width - 2)
		f.layout()
	case tickMsg:
		if msg.id != f.id {
			return f, nil
		}
		if !f.opts.Now().Before(f.deadline) {
			return f, f.settle(SampleResult{Action: Cancel, TimedOut: true})
		}
		return f, f.tick()
	case tea.KeyMsg:
		if f.opts.Now().Sub(f.openedAt) < f.opts.Grace {
			return f, nil
		}
		switch {
		case key.Matches(msg, SampleKeys.Interrupt):
			return f, f.settle(SampleResult{Action: Cancel, Interrupted: true})
		case key.Matches(msg, SampleKeys.Cancel):
			return f, f.settle(SampleResult{Action: Cancel})
		case key.Matches(msg, SampleKeys.Reject):
			return f, f.settle(SampleResult{Action: Reject})
		case key.Matches(msg, SampleKeys.Submit):
			return f, f.accept()
		case key.Matches(msg, SampleKeys.ScrollUp):
			f.request.PageUp()
			return f, nil
		case key.Matches(msg, SampleKeys.ScrollDown):
			f.request.PageDown()
			return f, nil
		}
	}
	m, cmd := f.form.Update(msg)
	f.form = m.(*huh.Form)
	if f.form.State == huh.StateCompleted {
		return f, f.accept()
	}
	return f, cmd
}

// chrome is the lines of the header around the transcript: the frame, who
// asks, the connection, the queue.
func (f *SampleForm) chrome() int {
	n := 4
	if f.req.Total > 1 {
		n++
	}
	return n
}

func (f *SampleForm) textWidth() int { return max(f.width-8, 18) }

// layout gives the request's box what the fields and the footer leave of
// the screen, at least one line, and the fields what the header leaves.
func (f *SampleForm) layout() {
	wrapped := lipgloss.NewStyle().Width(f.textWidth()).Render(f.transcript)
	f.request.Width = f.textWidth()
	f.request.SetContent(wrapped)
	lines := lipgloss.Height(wrapped)
	footer := lipgloss.Height(f.footer())
	fields := lipgloss.Height(f.group.Content())
	room := f.height - footer - fields - f.chrome() - 1
	h := min(lines, max(room, 1))
	if h < lines { // a line for the position
		h = max(room-1, 1)
	}
	f.request.Height = h
	f.request.SetYOffset(f.request.YOffset) // clamp
	f.form = f.form.WithHeight(max(f.height-lipgloss.Height(f.header())-footer-1, minFormHeight))
}

// header is the framed header with the request, or on a screen too short
// for it (and the footer, and a few lines of fields) a compact one without
// the frame.
func (f *SampleForm) header() string {
	budget := f.height - lipgloss.Height(f.footer()) - 1 - minFormHeight
	if framed := f.framedHeader(); lipgloss.Height(framed) <= budget {
		return framed
	}
	width := max(f.width-1, 10)
	lines := []string{styleTitle.Render(ansi.Truncate(f.asker(), width, "…"))}
	for _, l := range strings.Split(f.request.View(), "\n") {
		lines = append(lines, styleMessage.Render(ansi.Truncate(l, width-2, "…")))
	}
	if budget = max(budget, 1); len(lines) > budget {
		lines = lines[:budget]
	}
	return strings.Join(lines, "\n")
}

// asker is the header's first line: who asks.
func (f *SampleForm) asker() string {
	return formschema.Clean(f.req.Server) + " asks for a model's reply"
}

func (f *SampleForm) framedHeader() string {
	var b strings.Builder
	width := max(f.width-6, 20)
	b.WriteString(styleTitle.Render(ansi.Truncate(f.asker(), width, "…")) + "\n")
	b.WriteString(styleDim.Render(ansi.Truncate("via "+formschema.Clean(f.req.Connection), width, "…")) + "\n")
	if f.req.Total > 1 {
		b.WriteString(styleDim.Render(fmt.Sprintf("%d of %d pending", f.req.Position, f.req.Total)) + "\n")
	}
	body := f.request.View()
	if total := f.request.TotalLineCount(); total > f.request.Height {
		first := f.request.YOffset + 1
		pos := fmt.Sprintf("lines %d–%d of %d · pgup/pgdown scroll", first, min(f.request.YOffset+f.request.Height, total), total)
		body += "\n" + styleNote.Render(ansi.Truncate(pos, f.textWidth(), "…"))
	}
	b.WriteString(styleMessage.Render(body))
	return styleFrame.Width(max(f.width-2, 24)).Render(b.String())
}

func (f *SampleForm) footer() string {
	var parts []string
	for _, k := range SampleKeys.ShortHelp() {
		parts = append(parts, k.Help().Key+" "+k.Help().Desc)
	}
	parts = append(parts, "enter next")
	line := styleDim.Width(max(f.width-1, 20)).Render(strings.Join(parts, " · "))
	if !f.deadline.IsZero() {
		left := max(f.deadline.Sub(f.opts.Now()), 0).Round(time.Second)
		line = styleNote.Render(fmt.Sprintf("cancels in %d:%02d", int(left.Minutes()), int(left.Seconds())%60)) + "\n" + line
	}
	return line
}

// View draws the header with the request, the fields and the footer.
func (f *SampleForm) View() string {
	if f.result != nil {
		return ""
	}
	return f.header() + "\n" + f.form.View() + "\n" + f.footer()
}

// StandaloneSample runs a sample form as a whole program: it quits once the
// form settles.
func StandaloneSample(f *SampleForm) tea.Model { return sampleStandalone{f} }

type sampleStandalone struct{ form *SampleForm }

func (s sampleStandalone) Init() tea.Cmd { return s.form.Init() }

func (s sampleStandalone) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(SampleDoneMsg); ok {
		return s, tea.Quit
	}
	_, cmd := s.form.Update(msg)
	return s, cmd
}

func (s sampleStandalone) View() string { return s.form.View() }
