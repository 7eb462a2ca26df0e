//go:build unix

package watch

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// sockDir is a short socket directory of the test's (a socket's path is
// limited to about 100 bytes).
func sockDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "mw")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func start(t *testing.T, wire *mcpclient.WireLog, opts Options) *Hub {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = sockDir(t)
	}
	opts.Wire = wire
	h, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

func TestDirIsRefusedUnlessPrivate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		make  func(t *testing.T, path string)
		wantE string
	}{
		{"a link to a private directory", func(t *testing.T, p string) {
			must(t, os.Symlink(t.TempDir(), p))
		}, "is a symbolic link"},
		{"a file", func(t *testing.T, p string) {
			must(t, os.WriteFile(p, nil, 0o600))
		}, "is not a directory"},
		{"a directory others can enter", func(t *testing.T, p string) {
			must(t, os.Mkdir(p, 0o700))
			must(t, os.Chmod(p, 0o711))
		}, "is open to other users (mode 0711)"},
		{"a directory the group can read", func(t *testing.T, p string) {
			must(t, os.Mkdir(p, 0o700))
			must(t, os.Chmod(p, 0o740))
		}, "chmod 700"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := filepath.Join(t.TempDir(), "mcpeek")
			tt.make(t, p)
			_, err := ensureDir(p, os.Getuid())
			if err == nil || !strings.Contains(err.Error(), tt.wantE) {
				t.Fatalf("ensureDir = %v, want an error saying %q", err, tt.wantE)
			}
			if _, err := Start(Options{Dir: p, Wire: mcpclient.NewWireLog(0, nil)}); err == nil {
				t.Fatal("a proxy listened in the refused directory")
			}
		})
	}
	t.Run("another user's", func(t *testing.T) {
		t.Parallel()
		p := t.TempDir()
		if err := checkDir(p, os.Getuid()+1); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
			t.Fatalf("checkDir = %v, want it refused as another user's", err)
		}
	})
}

func TestDirIsMadePrivate(t *testing.T) {
	rt := sockDir(t)
	t.Setenv("XDG_RUNTIME_DIR", rt)
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(rt, "mcpeek") {
		t.Fatalf("Dir = %s, want mcpeek in XDG_RUNTIME_DIR", dir)
	}
	h := start(t, mcpclient.NewWireLog(0, nil), Options{Dir: dir, Info: Info{Name: "fs", Server: "fixture"}})
	for path, want := range map[string]os.FileMode{dir: 0o700, h.Info().Socket: 0o600, filepath.Join(dir, fmt.Sprint(os.Getpid())+".json"): 0o600} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s has mode %04o, want %04o", filepath.Base(path), got, want)
		}
	}
	all, err := List(dir)
	if err != nil || len(all) != 1 || all[0].Name != "fs" || all[0].PID != os.Getpid() {
		t.Fatalf("List = %+v, %v; want the proxy started", all, err)
	}
	must(t, h.Close())
	if all, _ := List(dir); len(all) != 0 {
		t.Fatalf("List after Close = %+v, want none", all)
	}

	// Open to others, XDG_RUNTIME_DIR is passed over for the temporary directory.
	must(t, os.Chmod(rt, 0o755))
	t.Setenv("TMPDIR", sockDir(t))
	if dir, err := Dir(); err != nil || !strings.HasPrefix(filepath.Base(dir), "mcpeek-") {
		t.Fatalf("Dir = %s, %v; want mcpeek-UID in TMPDIR", dir, err)
	}
}

func TestStaleProxiesAreRemoved(t *testing.T) {
	t.Parallel()
	dir := sockDir(t)
	const dead = 2147483600
	must(t, os.WriteFile(filepath.Join(dir, fmt.Sprint(dead)+".json"), []byte(`{"pid":2147483600,"server":"gone"}`), 0o600))
	must(t, os.WriteFile(filepath.Join(dir, fmt.Sprint(dead)+".sock"), nil, 0o600))
	all, err := List(dir)
	if err != nil || len(all) != 0 {
		t.Fatalf("List = %+v, %v; want no proxy", all, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

func TestPeerCheck(t *testing.T) {
	t.Parallel()
	refused := make(chan error, 1)
	h := start(t, mcpclient.NewWireLog(0, nil), Options{
		Check:   func(net.Conn) error { return errors.New("refused a peer running as user 4242") },
		Refused: func(err error) { refused <- err },
	})
	if w, err := Attach(context.Background(), h.Info()); err == nil {
		_ = w.Close()
		t.Fatal("a refused peer attached")
	}
	if err := within(t, refused); !strings.Contains(err.Error(), "4242") {
		t.Fatalf("refused with %v", err)
	}

	// The real check passes a peer of the same user, both ways.
	h2 := start(t, mcpclient.NewWireLog(0, nil), Options{})
	w, err := Attach(context.Background(), h2.Info())
	if err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
}

// follow attaches to h and hands what it is sent to a channel: entries'
// texts, "live" and "dropped".
func follow(t *testing.T, h *Hub, ask func(context.Context, json.RawMessage) (json.RawMessage, error)) (*Watcher, chan string) {
	t.Helper()
	w, err := Attach(context.Background(), h.Info())
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 100)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = w.Run(context.Background(), Handler{
			Entry: func(e mcpclient.WireEntry) { got <- e.Text },
			Live:  func() { got <- "live" },
			Ask:   ask,
		})
	}()
	t.Cleanup(func() { _ = w.Close(); <-done })
	return w, got
}

func expect(t *testing.T, got chan string, want ...string) {
	t.Helper()
	for _, w := range want {
		select {
		case g := <-got:
			if g != w {
				t.Fatalf("got %q, want %q", g, w)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no %q", w)
		}
	}
}

func TestRingThenLive(t *testing.T) {
	t.Parallel()
	wire := mcpclient.NewWireLog(2, nil)
	wire.Secret("hunter2-s3cret-token")
	wire.Note("forgotten")
	wire.Note("one")
	wire.Note("two hunter2-s3cret-token")
	h := start(t, wire, Options{})
	_, got := follow(t, h, nil)
	expect(t, got, "one", "two [redacted]", "live")
	wire.Note("three hunter2-s3cret-token")
	expect(t, got, "three [redacted]")
}

func TestSlowWatcherDoesNotBlock(t *testing.T) {
	t.Parallel()
	wire := mcpclient.NewWireLog(10, nil)
	h := start(t, wire, Options{})
	c, err := net.Dial("unix", h.Info().Socket) // attached, and never reads
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	if _, err := r.ReadString('\n'); err != nil { // the hello: attached
		t.Fatal(err)
	}
	big := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("x", 8<<10) + `"}}`
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 2 * queueLen {
			wire.Raw(mcpclient.DirRecv, []byte(big), "notifications/message", nil)
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the log blocked on a watcher that does not read")
	}
	// Reading now, the watcher is told what it missed.
	s := bufio.NewScanner(r)
	s.Buffer(nil, MaxLine)
	for s.Scan() {
		var m message
		must(t, json.Unmarshal(s.Bytes(), &m))
		if m.Type == typeDropped && m.Dropped > 0 {
			return
		}
	}
	t.Fatalf("never told of dropped entries: %v", s.Err())
}

func TestAsk(t *testing.T) {
	t.Parallel()
	params := json.RawMessage(`{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`)
	t.Run("nobody attached", func(t *testing.T) {
		t.Parallel()
		h := start(t, mcpclient.NewWireLog(0, nil), Options{})
		if _, err := h.Ask(context.Background(), params); !errors.Is(err, ErrNoWatcher) {
			t.Fatalf("Ask = %v, want ErrNoWatcher", err)
		}
	})
	t.Run("answered", func(t *testing.T) {
		t.Parallel()
		h := start(t, mcpclient.NewWireLog(0, nil), Options{})
		follow(t, h, func(_ context.Context, p json.RawMessage) (json.RawMessage, error) {
			if string(p) != string(params) {
				return nil, fmt.Errorf("asked %s", p)
			}
			return json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil
		})
		res, err := h.Ask(context.Background(), params)
		if err != nil || string(res) != `{"action":"accept","content":{"name":"Ada"}}` {
			t.Fatalf("Ask = %s, %v", res, err)
		}
	})
	t.Run("a question longer than a watcher takes", func(t *testing.T) {
		t.Parallel()
		h := start(t, mcpclient.NewWireLog(0, nil), Options{})
		follow(t, h, nil)
		huge := json.RawMessage(`{"message":"` + strings.Repeat("x", MaxLine) + `"}`)
		if _, err := h.Ask(context.Background(), huge); err == nil || !strings.Contains(err.Error(), "longer than a watcher takes") {
			t.Fatalf("Ask = %v, want it refused", err)
		}
		if h.Watchers() != 1 { // still attached
			t.Fatalf("%d watchers, want the one still attached", h.Watchers())
		}
	})
	t.Run("the watcher detaches mid-question", func(t *testing.T) {
		t.Parallel()
		h := start(t, mcpclient.NewWireLog(0, nil), Options{})
		asked := make(chan struct{})
		w, _ := follow(t, h, func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
			close(asked)
			<-ctx.Done()
			return nil, ctx.Err()
		})
		go func() { <-asked; _ = w.Close() }()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if _, err := h.Ask(ctx, params); err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), "detached") {
			t.Fatalf("Ask = %v, want the detach said at once", err)
		}
	})
	t.Run("withdrawn by the proxy", func(t *testing.T) {
		t.Parallel()
		h := start(t, mcpclient.NewWireLog(0, nil), Options{})
		withdrawn := make(chan struct{})
		ctx, cancel := context.WithCancel(context.Background())
		follow(t, h, func(actx context.Context, _ json.RawMessage) (json.RawMessage, error) {
			cancel()
			<-actx.Done() // the watcher's form closes
			close(withdrawn)
			return nil, actx.Err()
		})
		if _, err := h.Ask(ctx, params); !errors.Is(err, context.Canceled) {
			t.Fatalf("Ask = %v, want context.Canceled", err)
		}
		<-withdrawn
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A message longer than a watcher is sent whole arrives as its head and
// the start of its text, saying its length.
func TestLongEntryIsCut(t *testing.T) {
	t.Parallel()
	wire := mcpclient.NewWireLog(0, nil)
	h := start(t, wire, Options{})
	w, err := Attach(context.Background(), h.Info())
	must(t, err)
	defer w.Close()
	got := make(chan mcpclient.WireEntry, 1)
	go func() {
		_ = w.Run(context.Background(), Handler{
			Live: func() {
				wire.Raw(mcpclient.DirRecv, []byte(`{"jsonrpc":"2.0","id":9,"result":{"text":"`+strings.Repeat("x", 2*MaxLine)+`"}}`), "", json.RawMessage(`9`))
			},
			Entry: func(e mcpclient.WireEntry) { got <- e },
		})
	}()
	select {
	case e := <-got:
		if e.Dir != mcpclient.DirRecv || string(e.ID) != "9" || e.Message != nil ||
			!strings.HasPrefix(e.Text, `{"jsonrpc":"2.0","id":9,"result":{"text":"xxx`) || !strings.Contains(e.Text, "bytes; --wire-log keeps whole messages") {
			t.Fatalf("entry = %+v (text %d bytes)", e, len(e.Text))
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no entry")
	}
}

// A watcher attaching after the handshake has left the ring is sent it
// first, whole, so that it knows which revision the traffic speaks; one
// the ring still holds is not sent twice.
func TestWatcherIsSentTheHandshakeOnceGone(t *testing.T) {
	t.Parallel()
	handshake := func(wire *mcpclient.WireLog) {
		wire.Raw(mcpclient.DirSend, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`), "initialize", json.RawMessage(`0`))
		wire.Raw(mcpclient.DirRecv, []byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}`), "", json.RawMessage(`0`))
		wire.Raw(mcpclient.DirSend, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), "notifications/initialized", nil)
	}
	for _, tc := range []struct {
		name  string
		notes []string
		want  []string
	}{
		{"gone", []string{"one", "two"}, []string{"initialize", "response 0", "notifications/initialized", "one", "two", "live"}},
		{"held", nil, []string{"initialize", "response 0", "notifications/initialized", "live"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wire := mcpclient.NewWireLog(3, nil)
			handshake(wire)
			for _, n := range tc.notes {
				wire.Note(n)
			}
			h := start(t, wire, Options{})
			w, err := Attach(context.Background(), h.Info())
			if err != nil {
				t.Fatal(err)
			}
			got := make(chan string, 100)
			copied := mcpclient.NewWireLog(0, nil)
			done := make(chan struct{})
			go func() {
				defer close(done)
				_ = w.Run(context.Background(), Handler{
					Entry: func(e mcpclient.WireEntry) {
						copied.Add(e)
						switch {
						case e.Method != "":
							got <- e.Method
						case len(e.ID) > 0:
							got <- "response " + string(e.ID)
						default:
							got <- e.Text
						}
					},
					Live: func() { got <- "live" },
				})
			}()
			t.Cleanup(func() { _ = w.Close(); <-done })
			expect(t, got, tc.want...)
			if hs := copied.Handshake(); len(hs) != 3 || !strings.Contains(string(hs[1].Message), "2025-11-25") {
				t.Errorf("the watcher's handshake = %+v, want the proxy's three messages", hs)
			}
		})
	}
}

// A dead proxy's URL notes, whose URLs hold tokens, go with its socket
// and info; a running one's stay.
func TestStaleWatchNotesAreRemoved(t *testing.T) {
	t.Parallel()
	dir := sockDir(t)
	const dead = 2147483600
	must(t, os.WriteFile(filepath.Join(dir, fmt.Sprint(dead)+".json"), []byte(`{"pid":2147483600,"server":"gone"}`), 0o600))
	must(t, os.WriteFile(filepath.Join(dir, fmt.Sprint(dead)+".sock"), nil, 0o600))
	for _, n := range []string{"1", "2"} {
		must(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d-open-%s.txt", dead, n)), []byte("http://127.0.0.1/?token=t\n"), 0o600))
	}
	mine := filepath.Join(dir, fmt.Sprintf("%d-open-1.txt", os.Getpid()))
	must(t, os.WriteFile(mine, []byte("http://127.0.0.1/?token=t\n"), 0o600))
	removeStale(dir)
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 1 || left[0] != mine {
		t.Fatalf("left behind: %v; want only %s", left, mine)
	}
}

// within is the next value of ch, or the test fails after 30 s.
func within[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatal("nothing came within 30 s")
		var zero T
		return zero
	}
}
