package nativeform_test

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/mcpeek/mcpeek/internal/teasync"
	"github.com/mcpeek/mcpeek/nativeform"
)

// sampleTranscript is how the inspector words the fixture's ask_model.
const sampleTranscript = "system: You are the model of an MCP client under test.\n" +
	"user: In one line: what is ticket T-7 about?\n" +
	"asks: maxTokens 100 · models any-small-model · speed priority 0.8"

func sampleRequest(transcript string) nativeform.SampleRequest {
	return nativeform.SampleRequest{Server: "mcpeek fixture", Connection: "mcpeek fixture --http 127.0.0.1:9", Transcript: transcript, Model: "mcpeek"}
}

// sampleDriver drives a sample form as a person would.
type sampleDriver struct {
	t    *testing.T
	tm   *teasync.Program
	form *nativeform.SampleForm
}

func openSample(t *testing.T, req nativeform.SampleRequest, opts nativeform.Options, w, h int) *sampleDriver {
	t.Helper()
	if opts.Grace == 0 {
		opts.Grace = time.Nanosecond
	}
	form := nativeform.NewSample(req, opts)
	return &sampleDriver{t: t, form: form, tm: teasync.New(t, nativeform.StandaloneSample(form), teatest.WithInitialTermSize(w, h))}
}

func (d *sampleDriver) expect(texts ...string) *sampleDriver {
	d.t.Helper()
	expectOn(d.t, d.tm, texts...)
	return d
}

func (d *sampleDriver) typeText(s string) *sampleDriver {
	d.t.Helper()
	d.tm.Type(s)
	return d
}

func (d *sampleDriver) press(keys ...tea.KeyType) *sampleDriver {
	d.t.Helper()
	for _, k := range keys {
		d.tm.Send(tea.KeyMsg{Type: k})
	}
	return d
}

func (d *sampleDriver) result() nativeform.SampleResult {
	d.t.Helper()
	d.tm.WaitFinished(d.t, teatest.WithFinalTimeout(5*time.Second))
	r, ok := d.form.Result()
	if !ok {
		d.t.Fatal("the form did not settle")
	}
	return r
}

func (d *sampleDriver) view() string {
	d.t.Helper()
	if err := d.tm.Quit(); err != nil {
		d.t.Fatal(err)
	}
	d.tm.WaitFinished(d.t, teatest.WithFinalTimeout(5*time.Second))
	return d.form.View()
}

func TestSampleFormAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		steps func(d *sampleDriver)
		want  nativeform.SampleResult
	}{
		{"reply on two lines, another model, another stop reason", func(d *sampleDriver) {
			d.typeText("About logins.").press(tea.KeyCtrlJ).typeText("Second line.").press(tea.KeyTab).
				press(tea.KeyCtrlU).typeText("gpt-test").press(tea.KeyEnter).
				press(tea.KeyRight).press(tea.KeyCtrlS)
		}, nativeform.SampleResult{Action: nativeform.Accept, Text: "About logins.\nSecond line.", Model: "gpt-test", StopReason: "stopSequence"}},
		{"submit at once sends the defaults", func(d *sampleDriver) { d.press(tea.KeyCtrlS) },
			nativeform.SampleResult{Action: nativeform.Accept, Model: "mcpeek", StopReason: "endTurn"}},
		{"enter on the last field submits", func(d *sampleDriver) {
			d.typeText("Short.").press(tea.KeyEnter, tea.KeyEnter, tea.KeyEnter)
		}, nativeform.SampleResult{Action: nativeform.Accept, Text: "Short.", Model: "mcpeek", StopReason: "endTurn"}},
		{"ctrl+r rejects", func(d *sampleDriver) { d.typeText("never sent").press(tea.KeyCtrlR) },
			nativeform.SampleResult{Action: nativeform.Reject}},
		{"esc cancels", func(d *sampleDriver) { d.press(tea.KeyEsc) }, nativeform.SampleResult{Action: nativeform.Cancel}},
		{"ctrl+c cancels and interrupts", func(d *sampleDriver) { d.press(tea.KeyCtrlC) },
			nativeform.SampleResult{Action: nativeform.Cancel, Interrupted: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := openSample(t, sampleRequest(sampleTranscript), nativeform.Options{}, 100, 40)
			d.expect("asks for a model's reply", "Stop reason")
			tc.steps(d)
			if got := d.result(); got != tc.want {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestSampleFormTimeout(t *testing.T) {
	t.Parallel()
	d := openSample(t, sampleRequest(sampleTranscript), nativeform.Options{Timeout: 1500 * time.Millisecond}, 100, 40)
	d.expect("cancels in 0:0")
	if r := d.result(); r.Action != nativeform.Cancel || !r.TimedOut {
		t.Errorf("result = %+v, want a timed-out cancel", r)
	}
}

// A request far longer than the screen shows in a box that scrolls, and
// the fields and the keys stay on the screen.
func TestSampleFormLongRequestScrolls(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 200 {
		b.WriteString("user: message line " + string(rune('A'+i%26)) + "\n")
	}
	for _, size := range []struct{ w, h int }{{80, 20}, {80, 24}, {40, 12}} {
		d := openSample(t, sampleRequest(b.String()), nativeform.Options{}, size.w, size.h)
		if size.h >= 20 {
			d.expect("Reply", "lines 1–").press(tea.KeyPgDown)
		} else {
			d.expect("Reply")
		}
		view := d.view()
		lines := strings.Split(view, "\n")
		if len(lines) > size.h {
			t.Errorf("%dx%d: %d lines:\n%s", size.w, size.h, len(lines), view)
		}
		for i, l := range lines {
			if w := lipgloss.Width(l); w > size.w {
				t.Errorf("%dx%d: line %d is %d cells wide", size.w, size.h, i+1, w)
			}
		}
		for _, want := range []string{"Reply", "ctrl+s submit", "ctrl+r reject"} {
			if !strings.Contains(view, want) {
				t.Errorf("%dx%d: %q is not on the screen:\n%s", size.w, size.h, want, view)
			}
		}
		if size.h >= 20 && (strings.Contains(view, "lines 1–") || !strings.Contains(view, "of 200")) {
			t.Errorf("%dx%d: pgdown did not scroll the request:\n%s", size.w, size.h, view)
		}
	}
}

func TestSampleFormGoldens(t *testing.T) {
	for _, size := range sizes {
		t.Run("ask_model/"+size.name, func(t *testing.T) {
			d := openSample(t, sampleRequest(sampleTranscript), nativeform.Options{}, size.w, size.h)
			golden.RequireEqual(t, []byte(d.expect("Stop reason").view()))
		})
	}
}

func TestSamplePlainMode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, input string
		want        nativeform.SampleResult
	}{
		{"answer every question", "a\nFirst line\n  indented\n.\ngpt-test\n2\n",
			nativeform.SampleResult{Action: nativeform.Accept, Text: "First line\n  indented", Model: "gpt-test", StopReason: "stopSequence"}},
		{"defaults", "\nOk\n.\n\n\n", nativeform.SampleResult{Action: nativeform.Accept, Text: "Ok", Model: "mcpeek", StopReason: "endTurn"}},
		{"a stop reason asked again until it is one", "a\nOk\n.\n\n9\n3\n",
			nativeform.SampleResult{Action: nativeform.Accept, Text: "Ok", Model: "mcpeek", StopReason: "maxTokens"}},
		{"reject", "r\n", nativeform.SampleResult{Action: nativeform.Reject}},
		{"cancel", "c\n", nativeform.SampleResult{Action: nativeform.Cancel}},
		{"end of input cancels", "a\nhalf a reply", nativeform.SampleResult{Action: nativeform.Cancel}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			r, err := nativeform.AskSamplePlain(context.Background(), sampleRequest(sampleTranscript), nativeform.Options{},
				nativeform.NewLines(strings.NewReader(tc.input)), &out)
			if err != nil {
				t.Fatal(err)
			}
			if r != tc.want {
				t.Errorf("got %+v\nwant %+v\n%s", r, tc.want, out.String())
			}
			for _, want := range []string{"mcpeek fixture asks for a model's reply", "via mcpeek fixture --http", "user: In one line: what is ticket T-7 about?"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("the output lacks %q:\n%s", want, out.String())
				}
			}
		})
	}
}

func TestSamplePlainModeTimeout(t *testing.T) {
	t.Parallel()
	block, release := pipeThatNeverWrites()
	defer release()
	r, err := nativeform.AskSamplePlain(context.Background(), sampleRequest(sampleTranscript),
		nativeform.Options{Timeout: 200 * time.Millisecond}, nativeform.NewLines(block), &strings.Builder{})
	if err != nil || r.Action != nativeform.Cancel || !r.TimedOut {
		t.Errorf("got %+v, %v; want a timed-out cancel", r, err)
	}
}
