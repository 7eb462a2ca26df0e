package surface

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCheckConn: the inspector's call on its connection and working
// directory. Without a lock it asks the server nothing; with the
// fixture's lock it has nothing to say; with a lock that holds a tool the
// server no longer has, its header counts the tool's removal and the
// version not bumped for it.
func TestCheckConn(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{Target: mcpclient.Target{Kind: mcpclient.TargetEmbedded,
		Embedded: func() *mcp.Server { return fixture.New(fixture.Options{}) }}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	dir := t.TempDir()
	// Requests sent: the handshake's last notification may still be
	// logged after Connect returns, so entries alone would count it.
	asked := func() (n int) {
		for _, e := range conn.Wire().Entries() {
			if e.Dir == mcpclient.DirSend && len(e.ID) > 0 {
				n++
			}
		}
		return n
	}
	before := asked()
	if before == 0 {
		t.Fatal("the wire log shows no request sent, not even initialize")
	}
	if st, err := CheckConn(ctx, conn, dir, time.Now()); st != nil || err != nil {
		t.Fatalf("no lock: %+v, %v", st, err)
	}
	if n := asked(); n != before {
		t.Errorf("without a lock the server was asked something: %d requests sent, then %d", before, n)
	}
	lock, err := os.ReadFile("../../testdata/fixture.surface.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "mcpeek"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(data string) {
		if err := os.WriteFile(filepath.Join(dir, LockFile), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(string(lock))
	if st, err := CheckConn(ctx, conn, dir, time.Now()); err != nil || st == nil || st.Header() != "" {
		t.Fatalf("the fixture's lock: %+v, %v", st, err)
	}
	write(strings.Replace(string(lock), `"tools": [`, `"tools": [{"name": "gone", "inputSchema": {"type": "object"}},`, 1))
	st, err := CheckConn(ctx, conn, dir, time.Now())
	if err != nil || st.Header() != "2 ERR since the lock" {
		t.Fatalf("a tool gone: %q, %v", st.Header(), err)
	}
	if got := ids(st.Findings); strings.Join(got, " ") != "tool-removed version-not-bumped" {
		t.Errorf("findings %v", got)
	}
}
