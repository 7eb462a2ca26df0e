package tui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// fakeSessions is a connection with requests pending in their app.
type fakeSessions struct {
	mu        sync.Mutex
	pending   []mcpclient.Pending
	abandoned []string
}

func (f *fakeSessions) Pending() []mcpclient.Pending {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]mcpclient.Pending(nil), f.pending...)
}

func (f *fakeSessions) AbandonApp(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.abandoned = append(f.abandoned, key)
	for i := range f.pending {
		if f.pending[i].Key == key {
			f.pending[i].Path = mcpclient.PathNative
		}
	}
	return true
}

// syncBuffer is a bytes.Buffer safe to read while a program writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestWatchAppsStatusLine: while `call --interactive --app-host` has a
// question in the browser, the terminal says so, and n sends it to the
// native form.
func TestWatchAppsStatusLine(t *testing.T) {
	t.Parallel()
	conn := &fakeSessions{pending: []mcpclient.Pending{
		{Key: "e-1", Message: "Pick", Path: mcpclient.PathApp, Since: time.Now()},
		{Key: "e-2", Message: "Pick again", Path: mcpclient.PathApp, Since: time.Now()},
	}}
	in, typing := io.Pipe()
	defer typing.Close()
	out := &syncBuffer{}
	a := &FormAsker{In: in, Out: out}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); a.WatchApps(ctx, conn) }()
	defer func() { cancel(); <-done }()

	waitFor(t, func() bool { return strings.Contains(out.String(), "answering e-1 in the browser (and 1 more)") }, "the status line")
	if !strings.Contains(out.String(), "n answers here") {
		t.Errorf("the status line does not say n answers here: %q", out.String())
	}
	if _, err := typing.Write([]byte("n")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		conn.mu.Lock()
		defer conn.mu.Unlock()
		return len(conn.abandoned) == 1 && conn.abandoned[0] == "e-1"
	}, "n to send e-1 to the native form")
	// The next one in the browser gets the line in turn.
	waitFor(t, func() bool { return strings.Contains(out.String(), "answering e-2 in the browser") }, "the status line for e-2")
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s", what)
		}
	}
}
