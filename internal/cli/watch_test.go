package cli

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/watch"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// mcpeek watch with nothing to watch, or asked wrongly, says so and
// exits non-zero; --list prints the proxies running.
func TestWatchCommandLine(t *testing.T) {
	rt, err := os.MkdirTemp("", "mw")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(rt) })
	t.Setenv("XDG_RUNTIME_DIR", rt)
	for _, c := range []struct {
		args     []string
		wantCode int
		want     string
	}{
		{[]string{"watch"}, exitConnection, "no mcpeek proxy of yours is running"},
		{[]string{"watch", "notes"}, exitConnection, `no running proxy of yours is called "notes"`},
		{[]string{"watch", "a", "b"}, exitUsage, "at most one NAME"},
	} {
		code, _, stderr := run(c.args...)
		if code != c.wantCode || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d saying %q", c.args, code, stderr, c.wantCode, c.want)
		}
	}

	h, err := watch.Start(watch.Options{Info: watch.Info{Name: "notes", Server: "notes-server --stdio", Started: time.Now()}, Wire: mcpclient.NewWireLog(0, nil)})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	code, stdout, stderr := run("watch", "--list")
	if code != exitOK || !strings.Contains(stdout, "notes") || !strings.Contains(stdout, "notes-server --stdio") {
		t.Errorf("watch --list: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// Not on a terminal, the watcher says what to use instead.
	if code, _, stderr := run("watch", "notes"); code != exitUsage || !strings.Contains(stderr, "on a terminal") {
		t.Errorf("watch notes in a pipe: exit %d, stderr %q", code, stderr)
	}
}
