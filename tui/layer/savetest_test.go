package layer

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// saveKey is a key the save layer reads, by name.
func saveKey(name string) tea.KeyMsg {
	switch name {
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "ctrl+u":
		return tea.KeyMsg{Type: tea.KeyCtrlU}
	case "ctrl+t":
		return tea.KeyMsg{Type: tea.KeyCtrlT}
	case "ctrl+r":
		return tea.KeyMsg{Type: tea.KeyCtrlR}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

// press sends the keys and returns the last one's action.
func press(l *SaveTest, names ...string) Action {
	var a Action
	for _, n := range names {
		a = l.Update(saveKey(n))
	}
	return a
}

// written is the WriteTest the action asks for, or fails the test.
func written(t *testing.T, a Action) WriteTest {
	t.Helper()
	w, ok := a.(WriteTest)
	if !ok {
		t.Fatalf("enter: %#v, want the test written", a)
	}
	return w
}

func saveView(l *SaveTest) string { return ansi.Strip(l.View(100, 30)) }

// The suite file starts on the first suite under mcpeek/; on the file
// field ↑/↓ go round the suites there, and a new name can be typed
// instead. With no suite there, the file is session.yaml, made.
func TestSaveTestPicksTheSuite(t *testing.T) {
	l, act := NewSaveTest(common(), "call choose_option", []string{"a.yaml", "more/b.yaml"}, "choose_option", false)
	if act != nil {
		t.Errorf("a tool not known to be read-only ran again unasked: %#v", act)
	}
	if v := saveView(l); !strings.Contains(v, "suite:  mcpeek/a.yaml") || !strings.Contains(v, "suites there (↑/↓): a.yaml, more/b.yaml") {
		t.Errorf("the view does not offer the suites there:\n%s", v)
	}
	// On the name (where the layer starts), ↑/↓ leave the file as it is.
	if w := written(t, press(l, "down", "enter")); w.File != "a.yaml" || w.Name != "choose_option" {
		t.Errorf("wrote %+v, want choose_option in a.yaml", w)
	}
	l.Update(TestWritten{L: l, Err: "refused"}) // back to typing
	for _, tc := range []struct {
		key, want string
	}{{"down", "more/b.yaml"}, {"down", "a.yaml"}, {"up", "more/b.yaml"}} {
		if w := written(t, press(l, "shift+tab", tc.key, "enter")); w.File != tc.want {
			t.Errorf("%s on the file: wrote to %q, want %q", tc.key, w.File, tc.want)
		}
		l.Update(TestWritten{L: l, Err: "refused"})
		press(l, "tab") // back on the name, as enter left it
	}
	// A new file: its name typed over the one picked.
	press(l, "shift+tab", "ctrl+u", "new.yaml")
	if w := written(t, press(l, "enter")); w.File != "new.yaml" {
		t.Errorf("wrote to %q, want the new file typed", w.File)
	}

	none, _ := NewSaveTest(common(), "read fixture://counter", nil, "fixture://counter", true)
	if v := saveView(none); !strings.Contains(v, "suite:  mcpeek/session.yaml") || !strings.Contains(v, "no suite under mcpeek/ yet") {
		t.Errorf("with no suite there, the view:\n%s", v)
	}
	if w := written(t, press(none, "enter")); w.File != "session.yaml" {
		t.Errorf("with no suite there, wrote to %q, want session.yaml", w.File)
	}
}

// The test's name starts as the request's target and is typed over; an
// empty name or file is refused in the layer, saying which.
func TestSaveTestName(t *testing.T) {
	l, _ := NewSaveTest(common(), "prompt greet", nil, "greet", true)
	if v := saveView(l); !strings.Contains(v, "test:   greet") || !strings.Contains(v, "Save as a test: prompt greet") {
		t.Errorf("the view:\n%s", v)
	}
	if a := press(l, "ctrl+u", "enter"); a != nil {
		t.Errorf("an empty name: %#v, want nothing written", a)
	}
	if v := saveView(l); !strings.Contains(v, "name the test") {
		t.Errorf("an empty name is not named:\n%s", v)
	}
	if a := press(l, "shift+tab", "ctrl+u", "tab", "greets in French", "enter"); a != nil {
		t.Errorf("an empty file: %#v, want nothing written", a)
	}
	if v := saveView(l); !strings.Contains(v, "name the suite file") {
		t.Errorf("an empty file is not named:\n%s", v)
	}
	press(l, "shift+tab", "s.yaml", "tab")
	want := WriteTest{From: l, File: "s.yaml", Name: "greets in French"}
	if a := press(l, "enter"); !reflect.DeepEqual(a, want) {
		t.Errorf("enter: %#v, want %#v", a, want)
	}
}

// The values a re-run found different are proposed as redactions, each
// shown with both values and kept at first; ctrl+t on one drops it, and
// only those kept are written. A re-run that could not say why says so.
func TestSaveTestProposedRedactions(t *testing.T) {
	l, act := NewSaveTest(common(), "call stamp", nil, "stamp", true)
	if act != (Rerun{From: l}) {
		t.Fatalf("a read-only step: %#v, want it run again at once", act)
	}
	if v := saveView(l); !strings.Contains(v, "running it again") {
		t.Errorf("the view does not say it runs again:\n%s", v)
	}
	l.Update(Proposed{L: l, Paths: []Proposal{
		{Path: "$.structuredContent.at", Was: `"10:00"`, Now: `"10:01"`},
		{Path: "$.structuredContent.n", Was: "1", Now: "2"},
	}})
	v := saveView(l)
	for _, want := range []string{"2 values changed", `[x] redact $.structuredContent.at: "10:00", then "10:01"`, "[x] redact $.structuredContent.n: 1, then 2"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view lacks %q:\n%s", want, v)
		}
	}
	// Onto the redactions (after the name), the second dropped.
	press(l, "tab", "down", "ctrl+t")
	if v := saveView(l); !strings.Contains(v, "> [ ] redact $.structuredContent.n") || !strings.Contains(v, "[x] redact $.structuredContent.at") {
		t.Errorf("the second redaction is not dropped:\n%s", v)
	}
	if w := written(t, press(l, "enter")); !reflect.DeepEqual(w.Redact, []string{"$.structuredContent.at"}) {
		t.Errorf("redactions written %q, want only the one kept", w.Redact)
	}
	l.Update(TestWritten{L: l, Err: "refused"})
	// Kept again, and the first dropped: none dropped is none unseen.
	press(l, "ctrl+t", "up", "ctrl+t")
	if w := written(t, press(l, "enter")); !reflect.DeepEqual(w.Redact, []string{"$.structuredContent.n"}) {
		t.Errorf("redactions written %q, want the second only", w.Redact)
	}
	l.Update(TestWritten{L: l, Err: "refused"})

	// ctrl+r runs it again, forgetting what the last run proposed.
	if a := press(l, "ctrl+r"); a != (Rerun{From: l}) {
		t.Errorf("ctrl+r: %#v, want a re-run", a)
	}
	l.Update(Proposed{L: l, Err: "it did not ask the same questions"})
	v = saveView(l)
	if !strings.Contains(v, "the re-run: it did not ask the same questions") || strings.Contains(v, "redact $.") {
		t.Errorf("a failed re-run:\n%s", v)
	}
	if w := written(t, press(l, "enter")); w.Redact != nil {
		t.Errorf("after a failed re-run, redactions %q written", w.Redact)
	}
}

// A name the suite has is refused: the layer stays, says why and takes
// keys again (while the test is written, enter does nothing); once
// written it closes, saying where.
func TestSaveTestDuplicateName(t *testing.T) {
	l, _ := NewSaveTest(common(), "call choose_option", []string{"session.yaml"}, "choose_option", false)
	written(t, press(l, "enter"))
	if v := saveView(l); !strings.Contains(v, "writing…") {
		t.Errorf("the view does not say it writes:\n%s", v)
	}
	if a := press(l, "enter"); a != nil {
		t.Errorf("enter while writing: %#v", a)
	}
	dup := `mcpeek/session.yaml:3: the suite already has a test named "choose_option"`
	if a := l.Update(TestWritten{L: l, Err: dup}); a != nil {
		t.Errorf("a refusal: %#v, want the layer to stay", a)
	}
	if v := saveView(l); !strings.Contains(v, "already has a test named") {
		t.Errorf("the refusal is not shown:\n%s", v)
	}
	if w := written(t, press(l, "ctrl+u", "choose_option again", "enter")); w.Name != "choose_option again" {
		t.Errorf("wrote %q after the refusal, want the name typed", w.Name)
	}
	said := "saved the test in mcpeek/session.yaml"
	if a := l.Update(TestWritten{L: l, Said: said}); !reflect.DeepEqual(a, Batch{StopRerun{From: l}, Close{}, Status{Text: said}}) {
		t.Errorf("written: %#v, want the layer closed and where said", a)
	}
	if a := press(l, "esc"); !reflect.DeepEqual(a, Batch{StopRerun{From: l}, Close{}}) {
		t.Errorf("esc: %#v", a)
	}
	if a := press(l, "ctrl+c"); !reflect.DeepEqual(a, Batch{StopRerun{From: l}, Close{}, AskQuit{}}) {
		t.Errorf("ctrl+c: %#v", a)
	}
}

// Closing the layer (esc) stops its re-run; the variables the test will
// read its secrets from are shown before it is written.
func TestSaveTestCloseStopsTheRerunAndShowsSecrets(t *testing.T) {
	l, act := NewSaveTest(common(), "call sign_in", nil, "sign_in", true)
	if _, ok := act.(Rerun); !ok {
		t.Fatalf("opening: %#v, want a re-run", act)
	}
	l.NeedEnv([]string{"MCPEEK_SECRET_API_KEY"})
	if v := saveView(l); !strings.Contains(v, "set MCPEEK_SECRET_API_KEY to run it") {
		t.Errorf("the variable is not shown:\n%s", v)
	}
	if a := press(l, "esc"); !reflect.DeepEqual(a, Batch{StopRerun{From: l}, Close{}}) {
		t.Errorf("esc: %#v, want the re-run stopped and the layer closed", a)
	}
}

// The save layer's footer lists every key it takes, the one that writes
// the test first, and all of it fits a terminal of 120 columns: none is
// cut off.
func TestSaveTestFooterFitsIn120Columns(t *testing.T) {
	c := common()
	k := SaveTestKeys
	footer := ansi.Strip(widget.Fit(c.KeyLine(k.ShortHelp()...), 120))
	if !strings.HasPrefix(footer, k.Confirm.Help().Key+" "+k.Confirm.Help().Desc) {
		t.Errorf("the footer does not begin with the key that writes the test: %q", footer)
	}
	for _, b := range []key.Binding{k.Confirm, k.Cancel, k.Next, k.Toggle, k.Rerun, k.Quit} {
		if h := b.Help(); !strings.Contains(footer, h.Key+" "+h.Desc) {
			t.Errorf("the footer at 120 columns lacks %q: %q", h.Key+" "+h.Desc, footer)
		}
	}
	if !strings.Contains(footer, "↑↓ choose") || strings.Contains(footer, "…") {
		t.Errorf("the footer at 120 columns is cut: %q", footer)
	}
}
