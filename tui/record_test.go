package tui

import (
	"strings"
	"sync"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// fakeRecorder records nothing, and says whether it is recording.
type fakeRecorder struct {
	mu   sync.Mutex
	path string
}

func (r *fakeRecorder) Recording() string { r.mu.Lock(); defer r.mu.Unlock(); return r.path }

func (r *fakeRecorder) Start(*mcpclient.Conn) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.path = "mcpeek-session.jsonl"
	return r.path, nil
}

func (r *fakeRecorder) Stop() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	path := r.path
	r.path = ""
	return path, nil
}

// While the session is recorded, the header says so on every screen,
// not only on the status line of the key that started it (which the
// next key clears); once it stops, the mark goes.
func TestRecordingIsMarkedWhileItRuns(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Recorder: &fakeRecorder{}}, 120, 30).expect("choose_option")
	if strings.Contains(in.tm.View(), "● recording") {
		t.Fatal("the header says recording before ctrl+r")
	}
	record := in.m.c.Keys.Tabs.Record
	in.press(record).expect("recording to mcpeek-session.jsonl")
	in.keys("2").expect("● recording") // another key: the status line is cleared, the mark stays
	if view := in.tm.View(); !strings.Contains(strings.SplitN(view, "\n", 2)[0], "● recording") {
		t.Errorf("the header does not mark the recording:\n%s", view)
	}
	in.press(record).expect("recorded to mcpeek-session.jsonl")
	if view := in.tm.View(); strings.Contains(view, "● recording") {
		t.Errorf("the mark stays once the recording stopped:\n%s", view)
	}
}
