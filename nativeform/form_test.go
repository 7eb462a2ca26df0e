package nativeform_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/teasync"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/muesli/termenv"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii) // goldens hold text, not colours
	os.Exit(m.Run())
}

// formDriver drives a form the way a person would: it waits for what is on
// screen, types, presses keys, and reads the answer. Each key is waited for
// until the form has processed it and what it led to (a focus move is a
// command of the form's own), never for a fixed time.
type formDriver struct {
	t    *testing.T
	tm   *teasync.Program
	form *nativeform.Form
}

func schemaOf(t *testing.T, raw string) *formschema.Schema {
	t.Helper()
	s, err := formschema.Parse(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func request(s *formschema.Schema, message string) nativeform.Request {
	return nativeform.Request{Server: "mcpeek fixture", Connection: "mcpeek fixture --http 127.0.0.1:9", Message: message, Schema: s}
}

func openForm(t *testing.T, req nativeform.Request, opts nativeform.Options, w, h int) *formDriver {
	t.Helper()
	if opts.Grace == 0 {
		opts.Grace = time.Nanosecond
	}
	if opts.Now == nil {
		opts.Now = testClock()
	}
	form := nativeform.New(req, opts)
	d := &formDriver{t: t, form: form, tm: teasync.New(t, nativeform.Standalone(form), teatest.WithInitialTermSize(w, h))}
	return d
}

// testNow is when a form of the tests opens: Thursday 5 November 2026,
// 10:00 in UTC+01:00, so that calendars and times are the same on every
// machine.
var testNow = time.Date(2026, 11, 5, 10, 0, 0, 0, time.FixedZone("", 3600))

// stoppedClock is a clock that moves only when the test moves it.
type stoppedClock struct {
	mu sync.Mutex
	at time.Time
}

func (c *stoppedClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

func (c *stoppedClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.at.Add(d)
}

// testClock is a clock that starts at testNow and runs on in real time
// (the countdown needs it to run).
func testClock() func() time.Time {
	start := time.Now()
	return func() time.Time { return testNow.Add(time.Since(start)) }
}

func (d *formDriver) expect(texts ...string) *formDriver {
	d.t.Helper()
	expectOn(d.t, d.tm, texts...)
	return d
}

// expectOn waits (5 s at most) until the texts are in what the program
// wrote since the last expect, or on its screen as it is now: the program
// writes only the lines that changed, so a frame like the one before
// writes nothing.
func expectOn(t *testing.T, tm *teasync.Program, texts ...string) {
	t.Helper()
	var seen []byte
	holds := func(b []byte) bool {
		for _, text := range texts {
			if !bytes.Contains(b, []byte(text)) {
				return false
			}
		}
		return true
	}
	deadline := time.Now().Add(5 * time.Second)
	for poll := 0; ; poll++ {
		b, _ := io.ReadAll(tm.Output())
		seen = append(seen, b...)
		if holds(seen) || poll%5 == 0 && holds([]byte(tm.View())) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q never came on screen; the screen:\n%s", texts, tm.View())
		}
		time.Sleep(5 * time.Millisecond) // polling, with the deadline above
	}
}

func (d *formDriver) typeText(s string) *formDriver {
	d.t.Helper()
	d.tm.Type(s)
	return d
}

func (d *formDriver) press(keys ...tea.KeyType) *formDriver {
	d.t.Helper()
	for _, k := range keys {
		d.tm.Send(tea.KeyMsg{Type: k})
	}
	return d
}

// next moves the focus on by n fields.
func (d *formDriver) next(n int) *formDriver {
	d.t.Helper()
	for range n {
		d.press(tea.KeyEnter)
	}
	return d
}

// focused waits until the field with this label has the focus (huh marks
// it with a bar in the margin).
func (d *formDriver) focused(label string) *formDriver {
	d.t.Helper()
	return d.expect("┃ " + label)
}

func (d *formDriver) result() nativeform.Result {
	d.t.Helper()
	d.tm.WaitFinished(d.t, teatest.WithFinalTimeout(5*time.Second))
	r, ok := d.form.Result()
	if !ok {
		d.t.Fatal("the form did not settle")
	}
	return r
}

// view stops the program and returns the form's page as drawn.
func (d *formDriver) view() string {
	d.t.Helper()
	if err := d.tm.Quit(); err != nil {
		d.t.Fatal(err)
	}
	d.tm.WaitFinished(d.t, teatest.WithFinalTimeout(5*time.Second))
	return d.form.View()
}

var sizes = []struct {
	name string
	w, h int
}{{"80x24", 80, 24}, {"120x40", 120, 40}}

const requiredOnly = `{"type":"object","properties":{
	"project_name":{"type":"string","minLength":3},
	"deployTarget":{"type":"string","enum":["staging","production"]},
	"confirm-delete":{"type":"boolean","description":"There is no undo."}},
	"required":["project_name","deployTarget","confirm-delete"]}`

// TestGoldenViews compares each view, at each size, with its golden file,
// testdata/<test name>.golden; run with -update to rewrite them.
func TestGoldenViews(t *testing.T) {
	allFields := schemaOf(t, string(fixture.AllFieldsSchema()))
	long := strings.Repeat("The deployment will replace every running instance of the service, one region at a time. ", 6)
	for _, size := range sizes {
		t.Run("all_fields/"+size.name, func(t *testing.T) {
			d := openForm(t, request(allFields, "Fill in every kind of field. Accepting the defaults is enough."), nativeform.Options{}, size.w, size.h)
			golden.RequireEqual(t, []byte(d.expect("Nickname").view()))
		})
		t.Run("all_fields_failed_submit/"+size.name, func(t *testing.T) {
			d := openForm(t, request(allFields, "Fill in every kind of field."), nativeform.Options{}, size.w, size.h)
			d.expect("Nickname").press(tea.KeyCtrlU).next(1).focused("Nickname").press(tea.KeyCtrlU).typeText("x").next(1).focused("Code").typeText("abc")
			// The errors, and the focus on the first field to fix.
			d.press(tea.KeyCtrlS).expect("need attention", "┃ Name")
			golden.RequireEqual(t, []byte(d.view()))
		})
		t.Run("required_only/"+size.name, func(t *testing.T) {
			d := openForm(t, request(schemaOf(t, requiredOnly), "Deploy?"), nativeform.Options{}, size.w, size.h)
			golden.RequireEqual(t, []byte(d.expect("Project name").view()))
		})
		t.Run("long_message/"+size.name, func(t *testing.T) {
			req := request(schemaOf(t, requiredOnly), long)
			req.Note = "rendered natively: the app did not declare elicitation support"
			req.Position, req.Total = 1, 3
			d := openForm(t, req, nativeform.Options{}, size.w, size.h)
			golden.RequireEqual(t, []byte(d.expect("Project name").view()))
		})
	}
}

const driven = `{"type":"object","properties":{
	"title":{"type":"string","minLength":2},
	"count":{"type":"integer","minimum":1,"maximum":5},
	"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}]},
	"notify":{"type":"boolean"},
	"tags":{"type":"array","items":{"anyOf":[{"const":"t1","title":"Red"},{"const":"t2","title":"Blue"}]}},
	"note":{"type":"string","default":"none"}},
	"required":["title"]}`

func TestDrivenAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		steps       func(d *formDriver)
		wantAction  nativeform.Action
		wantContent string // JSON, "" for none
	}{
		{"accept typed values", func(d *formDriver) {
			d.typeText("Hello").next(1).typeText("3").next(1).
				press(tea.KeyDown, tea.KeyDown).next(1).                // size: (no answer) → Small → Large
				press(tea.KeyDown).next(1).                             // notify: (no answer) → Yes
				typeText("x").press(tea.KeyDown).typeText("x").next(1). // tags: Red and Blue
				press(tea.KeyCtrlS)
		}, nativeform.Accept, `{"count":3,"note":"none","notify":true,"size":"l","tags":["t1","t2"],"title":"Hello"}`},
		{"untouched optional fields are left out, defaults sent", func(d *formDriver) {
			d.typeText("Hi").press(tea.KeyCtrlS)
		}, nativeform.Accept, `{"note":"none","title":"Hi"}`},
		{"decline", func(d *formDriver) { d.typeText("Hi").press(tea.KeyCtrlD) }, nativeform.Decline, ""},
		{"cancel by esc", func(d *formDriver) { d.press(tea.KeyEsc) }, nativeform.Cancel, ""},
		{"submit stays open until valid", func(d *formDriver) {
			d.press(tea.KeyCtrlS).expect("is required").typeText("x").press(tea.KeyCtrlS).
				expect("must be at least 2 characters").typeText("y").press(tea.KeyCtrlS)
		}, nativeform.Accept, `{"note":"none","title":"xy"}`},
		{"enter on the last field submits", func(d *formDriver) { d.typeText("Ok").next(6) }, nativeform.Accept, `{"note":"none","title":"Ok"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := openForm(t, request(schemaOf(t, driven), "Tell me."), nativeform.Options{}, 100, 60)
			d.expect("Title")
			tc.steps(d)
			r := d.result()
			if r.Action != tc.wantAction {
				t.Fatalf("action = %s, want %s", r.Action, tc.wantAction)
			}
			got := ""
			if r.Content != nil || tc.wantContent != "" {
				b, _ := json.Marshal(r.Content)
				got = string(b)
			}
			if got != tc.wantContent {
				t.Errorf("content = %s, want %s", got, tc.wantContent)
			}
		})
	}
}

func TestTimeoutCancels(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, driven), "Quick!"), nativeform.Options{Timeout: 1500 * time.Millisecond}, 100, 60)
	d.expect("cancels in 0:0")
	r := d.result()
	if r.Action != nativeform.Cancel || !r.TimedOut {
		t.Errorf("result = %+v, want a timed-out cancel", r)
	}
}

func TestKeysTypedAsTheFormOpensAreIgnored(t *testing.T) {
	t.Parallel()
	clock := &stoppedClock{at: testNow}
	d := openForm(t, request(schemaOf(t, driven), "Careful"), nativeform.Options{Grace: nativeform.DefaultGrace, Now: clock.now}, 100, 60)
	// Keys already in flight when the form appears: a decline among them.
	d.press(tea.KeyCtrlD).typeText("oops")
	clock.advance(nativeform.DefaultGrace - time.Millisecond)
	d.typeText("!")
	clock.advance(time.Millisecond) // the grace period is over
	d.typeText("Fine").press(tea.KeyCtrlS)
	r := d.result()
	if r.Action != nativeform.Accept || r.Content["title"] != "Fine" {
		t.Errorf("result = %+v, want accept with the title typed after the grace period only", r)
	}
}

func TestCtrlCCancelsAndInterrupts(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, driven), "Hm"), nativeform.Options{}, 100, 60)
	d.expect("Title").press(tea.KeyCtrlC)
	if r := d.result(); r.Action != nativeform.Cancel || !r.Interrupted {
		t.Errorf("result = %+v, want an interrupted cancel", r)
	}
}

func TestTitledEnumsSendConst(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, `{"type":"object","properties":{
		"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"m","title":"Medium"}]},
		"priority":{"type":"string","enum":["low","high"],"enumNames":["Low","High"]},
		"langs":{"type":"array","items":{"anyOf":[{"const":"en","title":"English"},{"const":"fr","title":"French"}]}}}}`)
	d := openForm(t, request(s, "Pick"), nativeform.Options{}, 100, 40)
	d.expect("Medium")
	// Size: (no answer) → Small → Medium; Priority: (no answer) → Low → High; Langs: French.
	d.press(tea.KeyDown, tea.KeyDown).next(1).press(tea.KeyDown, tea.KeyDown).next(1).press(tea.KeyDown).typeText("x").press(tea.KeyCtrlS)
	r := d.result()
	got, _ := json.Marshal(r.Content)
	if r.Action != nativeform.Accept || string(got) != `{"langs":["fr"],"priority":"high","size":"m"}` {
		t.Errorf("content = %s, want the consts m, high and fr, not their titles", got)
	}
}

func TestAcceptWithDefaultsOnly(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, string(fixture.AllFieldsSchema()))
	d := openForm(t, request(s, "All"), nativeform.Options{}, 100, 60)
	d.expect("Nickname").press(tea.KeyCtrlS)
	r := d.result()
	got, _ := json.Marshal(r.Content)
	want, _ := json.Marshal(s.Defaults())
	if r.Action != nativeform.Accept || string(got) != string(want) {
		t.Errorf("got %s %s, want accept with exactly the defaults %s", r.Action, got, want)
	}
}

// A required select left at "(no answer)" says so beside it when a
// submit fails, not only in the count under the form.
func TestRequiredSelectShowsItsError(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, `{"type":"object","properties":{
		"target":{"type":"string","enum":["staging","production"]},
		"name":{"type":"string"}},
		"required":["target"]}`)
	d := openForm(t, request(s, "Deploy?"), nativeform.Options{}, 80, 24)
	// The select has the focus, and keeps it.
	d.expect("Target").press(tea.KeyCtrlS).expect("needs attention")
	view := d.view()
	if !regexp.MustCompile(`Target \*\s+✗ is required`).MatchString(view) {
		t.Errorf("no error beside the select:\n%s", view)
	}
}

// A form longer than the screen says which field has the focus.
func TestLongFormSaysWhereYouAre(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, string(fixture.AllFieldsSchema()))
	d := openForm(t, request(s, "All"), nativeform.Options{}, 80, 24)
	d.expect("field 1 of 16").next(2).expect("field 3 of 16")
	if view := d.view(); !strings.Contains(view, "field 3 of 16") {
		t.Errorf("no position:\n%s", view)
	}
}

// A form whose fields all fit says nothing of where you are.
func TestShortFormHasNoPosition(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, requiredOnly), "Deploy?"), nativeform.Options{}, 80, 24)
	if view := d.expect("Project name").view(); strings.Contains(view, " of 3") {
		t.Errorf("a position on a form that fits:\n%s", view)
	}
}

// On a small terminal the form keeps its footer: the header gives way.
func TestSmallTerminalKeepsTheFooter(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, string(fixture.AllFieldsSchema()))
	for _, h := range []int{12, 8} {
		d := openForm(t, request(s, "Fill in every kind of field. Accepting the defaults is enough."), nativeform.Options{}, 40, h)
		view := d.expect("Name").view()
		lines := strings.Split(view, "\n")
		if len(lines) > h || !strings.Contains(view, "ctrl+s submit") || !strings.Contains(lines[len(lines)-1], "shift+tab back") {
			t.Errorf("40x%d: %d lines, want the footer within %d:\n%s", h, len(lines), h, view)
		}
		if !strings.Contains(view, "Name *") {
			t.Errorf("40x%d: the focused field is not shown:\n%s", h, view)
		}
	}
}

// A form for a tool's arguments is not a server's question: no "asking
// for input", no decline.
func TestArgumentsForm(t *testing.T) {
	t.Parallel()
	req := nativeform.Request{Message: "Arguments for deploy", Schema: schemaOf(t, driven)}
	d := openForm(t, req, nativeform.Options{Arguments: true}, 80, 24)
	d.expect("Arguments for deploy").typeText("Hi")
	d.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlD}) // not a decline
	view := d.view()
	if r, settled := d.form.Result(); settled {
		t.Fatalf("ctrl+d settled an arguments form: %+v", r)
	}
	for _, unwanted := range []string{"is asking for input", "via", "decline"} {
		if strings.Contains(view, unwanted) {
			t.Errorf("the view has %q:\n%s", unwanted, view)
		}
	}
	if !strings.Contains(view, "> Hi") {
		t.Errorf("the typed text is gone:\n%s", view)
	}
}

// A multi-select says how to pick while it has the focus (huh's own help
// is off): space or x toggles an option, ctrl+a all of them; other fields
// do not say it.
func TestMultiSelectShowsItsKeys(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, `{"type":"object","properties":{
		"toppings":{"type":"array","title":"Toppings","items":{"type":"string","enum":["cheese","ham","olives"]}},
		"note":{"type":"string","title":"Note"}}}`)
	d := openForm(t, request(s, "Pizza?"), nativeform.Options{}, 80, 24)
	d.expect("space/x toggle", "ctrl+a all/none")
	d.tm.Send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
	d.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
	if r := d.result(); r.Action != nativeform.Accept || fmt.Sprint(r.Content["toppings"]) != "[cheese]" {
		t.Errorf("space did not toggle the first option: %+v", r)
	}
	d = openForm(t, request(s, "Pizza?"), nativeform.Options{}, 80, 24)
	d.expect("Toppings").next(1).focused("Note")
	if view := d.view(); strings.Contains(view, "space/x toggle") {
		t.Errorf("a text field names the multi-select's keys:\n%s", view)
	}
}
