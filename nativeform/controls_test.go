package nativeform_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/mcpeek/mcpeek/nativeform"
)

// controlForms are one form for each of the form's own controls: an
// optional text field, then the control, required; bad is what to type in
// it for an error other than "is required".
var controlForms = []struct {
	name, label, schema, bad string
}{
	{"date", "Due date", `{"type":"object","properties":{"note":{"type":"string","title":"Note"},
		"due":{"type":"string","format":"date","title":"Due date","description":"When the work is due.",
		"formatMinimum":"2026-11-03","formatMaximum":"2026-12-20"}},"required":["due"]}`, "2026-12-25"},
	{"date_time", "Starts", `{"type":"object","properties":{"note":{"type":"string","title":"Note"},
		"starts":{"type":"string","format":"date-time","title":"Starts","description":"When the meeting starts."}},"required":["starts"]}`, ""},
	{"slider", "Copies", `{"type":"object","properties":{"note":{"type":"string","title":"Note"},
		"copies":{"type":"integer","minimum":1,"maximum":10,"title":"Copies","description":"How many to print."}},"required":["copies"]}`, "11"},
	{"segmented", "Size", `{"type":"object","properties":{"note":{"type":"string","title":"Note"},
		"size":{"type":"string","title":"Size","description":"The shirt's size.",
		"oneOf":[{"const":"s","title":"Small"},{"const":"m","title":"Medium"},{"const":"l","title":"Large"}]}},"required":["size"]}`, ""},
}

// TestControlGoldens draws each of the form's own controls unfocused,
// focused and with an error, at each size; -update rewrites the goldens.
func TestControlGoldens(t *testing.T) {
	for _, c := range controlForms {
		for _, size := range sizes {
			open := func(t *testing.T) *formDriver {
				d := openForm(t, request(schemaOf(t, c.schema), "One control."), nativeform.Options{}, size.w, size.h)
				// The first field, focused, and the control: both drawn.
				return d.expect("┃ Note", c.label)
			}
			t.Run(c.name+"_unfocused/"+size.name, func(t *testing.T) {
				golden.RequireEqual(t, []byte(open(t).view()))
			})
			t.Run(c.name+"_focused/"+size.name, func(t *testing.T) {
				golden.RequireEqual(t, []byte(open(t).press(tea.KeyEnter).focused(c.label).view()))
			})
			t.Run(c.name+"_error/"+size.name, func(t *testing.T) {
				d := open(t).press(tea.KeyEnter).focused(c.label)
				if c.bad != "" {
					d.typeText(c.bad)
				}
				d.press(tea.KeyCtrlS).expect("┃ " + c.label + " *  ✗")
				golden.RequireEqual(t, []byte(d.view()))
			})
		}
	}
}

// keyMsg is a key by name, as the form's keys are written.
func keyMsg(name string) tea.KeyMsg {
	for k, n := range map[tea.KeyType]string{
		tea.KeyLeft: "left", tea.KeyRight: "right", tea.KeyUp: "up", tea.KeyDown: "down",
		tea.KeyPgUp: "pgup", tea.KeyPgDown: "pgdown", tea.KeyHome: "home", tea.KeyEnd: "end",
		tea.KeyEnter: "enter", tea.KeyBackspace: "backspace", tea.KeyCtrlU: "ctrl+u", tea.KeyCtrlS: "ctrl+s",
	} {
		if n == name {
			return tea.KeyMsg{Type: k}
		}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

// step presses a key and waits for what it shows.
type step struct{ key, shows string }

func (d *formDriver) steps(steps ...step) *formDriver {
	d.t.Helper()
	for _, s := range steps {
		d.tm.Send(keyMsg(s.key))
		d.expect(s.shows)
	}
	return d
}

// answer submits and returns the content sent, as JSON.
func (d *formDriver) answer() string {
	d.t.Helper()
	d.tm.Send(keyMsg("ctrl+s"))
	r := d.result()
	if r.Action != nativeform.Accept {
		d.t.Fatalf("action = %s, want accept", r.Action)
	}
	b, _ := json.Marshal(r.Content)
	return string(b)
}

const dateForm = `{"type":"object","properties":{
	"due":{"type":"string","format":"date","title":"Due"},
	"at":{"type":"string","format":"date-time","title":"At"}}}`

func TestDatePickedWithArrows(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, dateForm), "When?"), nativeform.Options{}, 100, 40)
	d.expect("November 2026", "[ 5]").steps(
		step{"right", "> 2026-11-06"},
		step{"down", "> 2026-11-13"},
		step{"pgdown", "December 2026"},
		step{"up", "> 2026-12-06"},
		step{"left", "> 2026-12-05"},
		step{"t", "> 2026-11-05"},
		step{"pgup", "October 2026"},
	)
	if got := d.answer(); got != `{"due":"2026-10-05"}` {
		t.Errorf("content = %s, want the date picked, and the untouched date-time left out", got)
	}
}

func TestDateTyped(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, dateForm), "When?"), nativeform.Options{}, 100, 40)
	d.expect("November 2026").typeText("2027-02-03").expect("February 2027", "[ 3]").
		steps(step{"left", "> 2027-02-02"})
	if got := d.answer(); got != `{"due":"2027-02-02"}` {
		t.Errorf("content = %s", got)
	}
}

// A month on from 31 January is the last day of February.
func TestDateMonthKeepsToTheMonth(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, dateForm), "When?"), nativeform.Options{}, 100, 40)
	d.expect("November 2026").typeText("2028-01-31").expect("January 2028").steps(step{"pgdown", "> 2028-02-29"})
	if got := d.answer(); got != `{"due":"2028-02-29"}` {
		t.Errorf("content = %s", got)
	}
}

func TestDateTime(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, dateForm), "When?"), nativeform.Options{}, 100, 40)
	d.expect("┃ Due").press(tea.KeyEnter).expect("┃ At", "> HH:MM").
		steps(step{"right", "> 10:00"}, step{"enter", "type the time"}, step{"ctrl+u", "> HH:MM"})
	d.typeText("14:30").expect("> 14:30")
	if got := d.answer(); got != `{"at":"2026-11-06T14:30:00+01:00"}` {
		t.Errorf("content = %s, want the day and time in the clock's offset", got)
	}
}

func TestDateTimeDefaultShownInTheLocalOffset(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, `{"type":"object","properties":{"at":{"type":"string","format":"date-time","default":"2026-12-24T17:45:00Z"}}}`)
	d := openForm(t, request(s, "When?"), nativeform.Options{}, 100, 40)
	d.expect("> 2026-12-24", "> 18:45", "December 2026", "[24]")
	if got := d.answer(); got != `{"at":"2026-12-24T17:45:00Z"}` {
		t.Errorf("content = %s, want the default as the server wrote it", got)
	}
}

const boundedDate = `{"type":"object","properties":{
	"day":{"type":"string","format":"date","title":"Day","formatMinimum":"2026-11-03","formatMaximum":"2026-11-10"}},"required":["day"]}`

func TestDateBounds(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, boundedDate), "When?"), nativeform.Options{}, 100, 40)
	// The keys stop at the bounds: a key that would leave them changes
	// nothing, as the key after it shows.
	d.expect("from 2026-11-03 to 2026-11-10").steps(step{"left", "> 2026-11-04"}, step{"left", "> 2026-11-03"})
	d.tm.Send(keyMsg("up"))
	d.steps(step{"right", "> 2026-11-04"}, step{"pgdown", "> 2026-11-10"})
	d.tm.Send(keyMsg("down"))
	d.steps(step{"left", "> 2026-11-09"}, step{"right", "> 2026-11-10"})
	// A date typed outside them is refused.
	d.press(tea.KeyCtrlU).typeText("2026-11-11").press(tea.KeyCtrlS).expect("must be on or before 2026-11-10")
	if _, settled := d.form.Result(); settled {
		t.Fatal("a date after formatMaximum was sent")
	}
	d.press(tea.KeyLeft).expect("> 2026-11-10")
	if got := d.answer(); got != `{"day":"2026-11-10"}` {
		t.Errorf("content = %s", got)
	}
}

const sliders = `{"type":"object","properties":{
	"copies":{"type":"integer","minimum":1,"maximum":10,"title":"Copies"},
	"rating":{"type":"number","minimum":0,"maximum":5,"title":"Rating"},
	"dose":{"type":"number","minimum":0,"maximum":1,"multipleOf":0.1,"title":"Dose"},
	"level":{"type":"integer","minimum":0,"maximum":100,"default":42,"title":"Level"},
	"wide":{"type":"integer","minimum":0,"maximum":1000,"title":"Wide"}}}`

func TestSliderControls(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, sliders), "How many?"), nativeform.Options{}, 100, 60)
	for key, want := range map[string]string{"copies": "slider", "rating": "slider", "dose": "slider", "level": "slider", "wide": "text"} {
		if got := d.form.Control(key); got != want {
			t.Errorf("%s is a %q, want a %q", key, got, want)
		}
	}
	d.expect("0–1000") // the wide range keeps the text input, the range as placeholder
	d.view()
}

func TestSliderSteps(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, sliders), "How many?"), nativeform.Options{}, 100, 60)
	d.expect("┃ Copies").steps(step{"right", "> 2"}, step{"right", "> 3"}) // min+2
	d.press(tea.KeyEnter).focused("Rating").steps(step{"right", "> 0.25"}, step{"end", "> 5"})
	d.tm.Send(keyMsg("right")) // stays at the maximum
	d.steps(step{"left", "> 4.75"})
	d.press(tea.KeyEnter).focused("Dose").steps(step{"right", "> 0.1"}, step{"right", "> 0.2"}, step{"right", "> 0.3"})
	if got := d.answer(); got != `{"copies":3,"dose":0.3,"level":42,"rating":4.75}` {
		t.Errorf("content = %s", got)
	}
}

func TestSliderIsSentAsAnInteger(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, sliders), "How many?"), nativeform.Options{}, 100, 60)
	d.expect("┃ Copies").steps(step{"right", "> 2"}, step{"right", "> 3"})
	d.tm.Send(keyMsg("ctrl+s"))
	r := d.result()
	if n, ok := r.Content["copies"].(int64); !ok || n != 3 {
		t.Errorf("copies = %#v, want the integer 3", r.Content["copies"])
	}
}

func TestSliderBoundsAndTyping(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, sliders), "How many?"), nativeform.Options{}, 100, 60)
	d.expect("┃ Copies").steps(step{"left", "> 1"})
	d.tm.Send(keyMsg("left")) // stays at the minimum
	d.steps(step{"right", "> 2"}, step{"end", "> 10"})
	// Typing works, and a number outside the bounds is refused.
	d.press(tea.KeyCtrlU).typeText("12").press(tea.KeyCtrlS).expect("must be at most 10")
	if _, settled := d.form.Result(); settled {
		t.Fatal("a number above the maximum was sent")
	}
	d.steps(step{"left", "> 10"}, step{"left", "> 9"})
	if got := d.answer(); got != `{"copies":9,"level":42}` {
		t.Errorf("content = %s", got)
	}
}

// A slider started from a default off its steps moves to the steps next
// to it.
func TestSliderLeavesAnOffStepDefaultForTheNextStep(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, `{"type":"object","properties":{"n":{"type":"number","minimum":0,"maximum":1000,"default":3.14,"title":"N"}}}`)
	d := openForm(t, request(s, "N?"), nativeform.Options{}, 100, 40)
	d.expect("> 3.14").steps(step{"right", "> 50"}, step{"left", "> 0"})
	if got := d.answer(); got != `{"n":0}` {
		t.Errorf("content = %s", got)
	}
}

func TestUntouchedControlsAreNotSent(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, `{"type":"object","properties":{
		"due":{"type":"string","format":"date"},
		"at":{"type":"string","format":"date-time"},
		"copies":{"type":"integer","minimum":1,"maximum":10},
		"size":{"type":"string","enum":["s","m","l"]},
		"born":{"type":"string","format":"date","default":"1990-05-17"},
		"level":{"type":"integer","minimum":0,"maximum":100,"default":42},
		"tone":{"type":"string","enum":["dry","warm"],"default":"warm"}}}`)
	d := openForm(t, request(s, "Anything?"), nativeform.Options{}, 100, 60)
	d.expect("November 2026")
	if got := d.answer(); got != `{"born":"1990-05-17","level":42,"tone":"warm"}` {
		t.Errorf("content = %s, want the defaults only", got)
	}
}

const choices = `{"type":"object","properties":{
	"size":{"type":"string","title":"Size","oneOf":[{"const":"s","title":"Small"},{"const":"m","title":"Medium"},{"const":"l","title":"Large"}]},
	"tone":{"type":"string","title":"Tone","enum":["dry","warm"],"default":"warm"},
	"agree":{"type":"boolean","title":"Agree"},
	"pet":{"type":"string","title":"Pet","enum":["cat","dog","bird","fish"]}}}`

func TestSegmentedChoice(t *testing.T) {
	t.Parallel()
	d := openForm(t, request(schemaOf(t, choices), "Pick"), nativeform.Options{}, 100, 40)
	for key, want := range map[string]string{"size": "segmented", "tone": "segmented", "agree": "segmented", "pet": "select"} {
		if got := d.form.Control(key); got != want {
			t.Errorf("%s is a %q, want a %q", key, got, want)
		}
	}
	d.expect("○ Small   ○ Medium   ○ Large").steps(
		step{"right", "● Small"},
		step{"right", "● Medium"},
		step{"right", "● Large"},
		step{"backspace", "○ Small   ○ Medium   ○ Large"},
		step{"right", "● Small"},
		step{"left", "○ Small   ○ Medium   ○ Large"}, // back to no answer
		step{"l", "● Small"},
	)
	// With a default, there is no "no answer" before the first option.
	d.press(tea.KeyEnter).focused("Tone").steps(step{"left", "● dry"})
	d.tm.Send(keyMsg("left"))
	d.steps(step{"right", "● warm"}, step{"left", "● dry"})
	d.press(tea.KeyEnter).focused("Agree").steps(step{"down", "● Yes"})
	if got := d.answer(); got != `{"agree":true,"size":"s","tone":"dry"}` {
		t.Errorf("content = %s", got)
	}
}

// A required yes/no starts unanswered, but once answered ← stops at
// "Yes" and backspace keeps the answer: the arrows never take it back to
// "(no answer)", which the form could not be sent with.
func TestRequiredYesNoKeepsItsAnswer(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, `{"type":"object","properties":{"agree":{"type":"boolean","title":"Agree"}},"required":["agree"]}`)
	d := openForm(t, request(s, "Agree?"), nativeform.Options{}, 100, 40)
	d.expect("○ Yes   ○ No").steps(step{"right", "● Yes"})
	d.tm.Send(keyMsg("left"))
	d.tm.Send(keyMsg("backspace"))
	view := d.view()
	if !strings.Contains(view, "● Yes") || strings.Contains(view, "backspace: no answer") {
		t.Errorf("← or backspace took a required yes/no back to no answer:\n%s", view)
	}
}

// Below 40 columns every control is its text form: the date and the
// slider a text input whose arrows move the cursor, the segmented choice
// the list.
func TestNarrowTerminalGetsTextForms(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, `{"type":"object","properties":{
		"due":{"type":"string","format":"date","title":"Due"},
		"copies":{"type":"integer","minimum":1,"maximum":10,"title":"Copies"},
		"size":{"type":"string","title":"Size","enum":["s","m","l"]}}}`)
	d := openForm(t, request(s, "Narrow"), nativeform.Options{}, 38, 40)
	d.expect("┃ Due", "> 1–10", "> (no answer)")
	d.typeText("2026-11-2").press(tea.KeyLeft).typeText("1").expect("> 2026-11-12") // the cursor moved left
	d.press(tea.KeyEnter).focused("Copies").typeText("4").press(tea.KeyRight).expect("> 4")
	d.press(tea.KeyEnter).focused("Size").press(tea.KeyDown).expect("> s")
	view := d.view()
	for _, unwanted := range []string{"November", "━", "○"} {
		if strings.Contains(view, unwanted) {
			t.Errorf("a narrow form shows %q:\n%s", unwanted, view)
		}
	}
	if got, _ := json.Marshal(d.form.Content()); string(got) != `{"copies":4,"due":"2026-11-12","size":"s"}` {
		t.Errorf("content = %s", got)
	}
}

// Plain mode asks a date with a line prompt and holds it to its bounds.
func TestPlainModeDateBounds(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	r, err := nativeform.AskPlain(context.Background(), request(schemaOf(t, boundedDate), "When?"), nativeform.Options{},
		nativeform.NewLines(strings.NewReader("a\n2026-12-01\n2026-11-04\n")), &out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Action != nativeform.Accept || r.Content["day"] != "2026-11-04" {
		t.Errorf("got %+v", r)
	}
	if !strings.Contains(out.String(), "! Day: must be on or before 2026-11-10") || !strings.Contains(out.String(), "[YYYY-MM-DD]") {
		t.Errorf("output:\n%s", out.String())
	}
}

// Enter on the date of a date-time goes to its time, even on the last
// field; enter on the time submits, and a form that fails and is built
// anew keeps what was typed.
func TestDateTimeOnTheLastField(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, `{"type":"object","properties":{"at":{"type":"string","format":"date-time","title":"At"}},"required":["at"]}`)
	d := openForm(t, request(s, "When?"), nativeform.Options{}, 100, 40)
	d.expect("┃ At").typeText("2026-11-20").expect("> 10:00").
		steps(step{"enter", "type the time"}, step{"ctrl+u", "> HH:MM"})
	d.typeText("25:00").press(tea.KeyEnter).expect("must be a date and time")
	if _, settled := d.form.Result(); settled {
		t.Fatal("an hour 25 was sent")
	}
	view := d.view()
	if !strings.Contains(view, "> 2026-11-20") || !strings.Contains(view, "> 25:00") {
		t.Errorf("what was typed is gone:\n%s", view)
	}
}
