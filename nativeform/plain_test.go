package nativeform_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/nativeform"
)

func TestPlainMode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, input string
		wantAction  nativeform.Action
		wantContent string
		wantOutput  string
	}{
		// title, count, size (2 = Large), notify (1 = Yes), tags (1,2), note kept.
		{"answer every field", "a\nHello\n3\n2\n1\n1,2\n\n", nativeform.Accept,
			`{"count":3,"note":"none","notify":true,"size":"l","tags":["t1","t2"],"title":"Hello"}`, "Title (required)"},
		{"required re-asked until valid", "\nx\n\n\n\n\n\nxy\n", nativeform.Accept, `{"note":"none","title":"xy"}`,
			"! Title: must be at least 2 characters"},
		{"decline", "d\n", nativeform.Decline, "null", "Answer, decline or cancel?"},
		{"cancel", "c\n", nativeform.Cancel, "null", ""},
		{"end of input cancels", "a\nHel", nativeform.Cancel, "null", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			r, err := nativeform.AskPlain(context.Background(), request(schemaOf(t, driven), "Tell me."), nativeform.Options{},
				nativeform.NewLines(strings.NewReader(tc.input)), &out)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(r.Content)
			if r.Action != tc.wantAction || string(b) != tc.wantContent {
				t.Errorf("got %s %s, want %s %s\n%s", r.Action, b, tc.wantAction, tc.wantContent, out.String())
			}
			if !strings.Contains(out.String(), tc.wantOutput) || !strings.Contains(out.String(), "mcpeek fixture is asking for input") {
				t.Errorf("output lacks %q:\n%s", tc.wantOutput, out.String())
			}
		})
	}
}

func TestPlainModeTimeout(t *testing.T) {
	t.Parallel()
	block, release := pipeThatNeverWrites()
	defer release()
	r, err := nativeform.AskPlain(context.Background(), request(schemaOf(t, driven), "Tell me."),
		nativeform.Options{Timeout: 200 * time.Millisecond}, nativeform.NewLines(block), &strings.Builder{})
	if err != nil || r.Action != nativeform.Cancel || !r.TimedOut {
		t.Errorf("got %+v, %v; want a timed-out cancel", r, err)
	}
}

// TestPlainModeQuestionsShareTheInput asks twice from one input: the
// second question gets the lines after the first one's, none lost.
func TestPlainModeQuestionsShareTheInput(t *testing.T) {
	t.Parallel()
	lines := nativeform.NewLines(strings.NewReader("a\nFirst\n\n\n\n\n\na\nSecond\n\n\n\n\n\n"))
	for _, want := range []string{"First", "Second"} {
		r, err := nativeform.AskPlain(context.Background(), request(schemaOf(t, driven), "Again"), nativeform.Options{}, lines, &strings.Builder{})
		if err != nil || r.Action != nativeform.Accept || r.Content["title"] != want {
			t.Fatalf("got %+v, %v; want title %s", r, err, want)
		}
	}
}

func pipeThatNeverWrites() (*blockingReader, func()) {
	r := &blockingReader{done: make(chan struct{})}
	return r, func() { close(r.done) }
}

type blockingReader struct{ done chan struct{} }

func (b *blockingReader) Read([]byte) (int, error) {
	<-b.done
	return 0, context.Canceled
}

// TestPlainModeSaysWhatEmptyKeeps: a choice's prompt says what an empty
// answer keeps: the default's option, the options a default picks, or no
// answer at all.
func TestPlainModeSaysWhatEmptyKeeps(t *testing.T) {
	t.Parallel()
	const schema = `{"type":"object","properties":{
		"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}],"default":"l"},
		"color":{"type":"string","enum":["red","blue"]},
		"tags":{"type":"array","items":{"anyOf":[{"const":"t1","title":"Red"},{"const":"t2","title":"Blue"}]},"default":["t1","t2"]},
		"more":{"type":"array","items":{"anyOf":[{"const":"t1","title":"Red"},{"const":"t2","title":"Blue"}]}}}}`
	var out strings.Builder
	r, err := nativeform.AskPlain(context.Background(), request(schemaOf(t, schema), "Tell me."), nativeform.Options{},
		nativeform.NewLines(strings.NewReader("a\n\n\n\n\n")), &out)
	if err != nil || r.Action != nativeform.Accept {
		t.Fatalf("%+v, %v", r, err)
	}
	for _, want := range []string{
		"number (empty: keep Large): ",
		"number (empty: no answer): ",
		"numbers separated by commas (empty: keep Red, Blue): ",
		"numbers separated by commas (empty: no answer): ",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the prompts lack %q:\n%s", want, out.String())
		}
	}
}
