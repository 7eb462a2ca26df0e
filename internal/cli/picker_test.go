package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui"
)

// The inspector's server picker lists the demo fixture and every server
// the configs name, each as the config writes it; choosing one connects to
// it with the config's headers (its secrets kept out of the wire log),
// while an entry that needs VS Code inputs, or is not valid, says why it
// cannot be chosen there. (The project's servers are trusted with
// --trust-project here; TestServerPickerNeedsApproval without it.)
func TestServerPickerEntries(t *testing.T) {
	_, project := home(t)
	var mu sync.Mutex
	var gotAuth []string
	fix := fixture.HTTPHandler(fixture.Options{}, false)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		gotAuth = append(gotAuth, r.Header.Get("Authorization"))
		mu.Unlock()
		fix.ServeHTTP(w, r)
	}))
	defer srv.Close()
	writeFile(t, filepath.Join(project, ".mcp.json"), fmt.Sprintf(`{"mcpServers": {
		"fix": {"type": "http", "url": %q, "headers": {"Authorization": "Bearer ${FIX_TOKEN}"}},
		"both": {"command": "x", "url": "https://example.com/mcp"}}}`, srv.URL))
	writeFile(t, filepath.Join(project, ".vscode", "mcp.json"), `{"inputs": [{"id": "key", "type": "promptString", "password": true}],
		"servers": {"asks": {"type": "http", "url": "https://example.com/mcp", "headers": {"X-Key": "${input:key}"}}}}`)
	t.Setenv("FIX_TOKEN", "tok-picked-123")

	t.Chdir(filepath.Join(project, "cmd"))

	fs := inspector().flagSet(io.Discard)
	o := newInspectOptions(fs).(*inspectOptions)
	wire := filepath.Join(t.TempDir(), "wire.jsonl")
	if err := o.parse(fs, []string{"--trust-project", "--wire-log", wire}); err != nil {
		t.Fatal(err)
	}
	e, err := o.conn.open(streams{}, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	entries, err := o.serverEntries(e)()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]tui.ServerEntry{}
	var names []string
	for _, en := range entries {
		byName[en.Name] = en
		names = append(names, en.Name)
	}
	if strings.Join(names, " ") != "fixture fix both asks" {
		t.Fatalf("entries %q, want the fixture, then the project's .mcp.json, then .vscode/mcp.json", names)
	}
	if f := byName["fixture"]; f.Key != "" || f.What != "embedded fixture" {
		t.Errorf("the fixture's entry %+v does not match the inspector started without a server", f)
	}
	if b := byName["both"]; b.Choose != nil || !strings.Contains(b.Note, "invalid") {
		t.Errorf("an entry with both command and url: %+v", b)
	}
	if f := byName["fix"]; f.What != srv.URL || !strings.HasPrefix(f.Key, "@fix in ") || !strings.HasSuffix(f.Key, ".mcp.json") {
		t.Errorf("fix's entry: %+v", f)
	}

	_, err = byName["asks"].Choose()
	if err == nil || !strings.Contains(err.Error(), "@asks") {
		t.Errorf("an entry with inputs: %v, want it started with @asks", err)
	}

	connectPicked(t, byName["fix"], srv.URL)
	mu.Lock()
	first := gotAuth[0]
	mu.Unlock()
	if first != "Bearer tok-picked-123" {
		t.Errorf("Authorization sent %q", first)
	}
	// Whatever carries the token into the wire log later (a server's
	// error echoing it, an auth note) finds it redacted.
	e.Wire.Note("the server said: bad token tok-picked-123")
	e.Close()
	log, err := os.ReadFile(wire)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), "tok-picked-123") || !strings.Contains(string(log), "bad token [redacted]") {
		t.Error("the wire log holds the picked server's token, or lost the note that carried it")
	}
	if !strings.Contains(string(log), "initialize") {
		t.Error("the picked server's traffic is not in the inspector's wire log")
	}
}

// connectPicked chooses an entry, as enter in the picker does, and lists
// the tools of the server it connects to, which must be at url.
func connectPicked(t *testing.T, entry tui.ServerEntry, url string) {
	t.Helper()
	sw, err := entry.Choose()
	if err != nil {
		t.Fatal(err)
	}
	if sw.Target != url || !strings.HasPrefix(sw.Source, "@"+entry.Name+" in ") || sw.ForgetAuth == nil {
		t.Errorf("switch %+v", sw)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := sw.Connect(ctx, &mcpclient.HeadlessAsker{Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.List(ctx, "tools"); err != nil {
		t.Fatal(err)
	}
}

// TestServerPickerNeedsApproval: the picker does not connect to a
// project's server the person has not approved: it says how to approve it
// (and which of their own it hides), and nothing reaches the server; once
// approved, the entry can be chosen. The person's own servers need no
// approval.
func TestServerPickerNeedsApproval(t *testing.T) {
	h, project := home(t)
	var mu sync.Mutex
	requests := 0
	fix := fixture.HTTPHandler(fixture.Options{}, false)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		mu.Unlock()
		fix.ServeHTTP(w, r)
	}))
	defer srv.Close()
	writeFile(t, filepath.Join(project, ".mcp.json"), fmt.Sprintf(`{"mcpServers": {"github": {"type": "http", "url": %q, "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}}}}`, srv.URL))
	writeFile(t, filepath.Join(h, ".cursor", "mcp.json"), `{"mcpServers": {"github": {"command": "gh-mcp"}, "mine": {"command": "mine"}}}`)
	t.Setenv("GITHUB_TOKEN", "tok-not-for-them")
	t.Chdir(filepath.Join(project, "cmd"))

	entries := func() map[string]tui.ServerEntry {
		fs := inspector().flagSet(io.Discard)
		o := newInspectOptions(fs).(*inspectOptions)
		if err := o.parse(fs, nil); err != nil {
			t.Fatal(err)
		}
		e, err := o.conn.open(streams{}, func(string) {})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(e.Close)
		list, err := o.serverEntries(e)()
		if err != nil {
			t.Fatal(err)
		}
		byKey := map[string]tui.ServerEntry{}
		for _, en := range list {
			byKey[en.Key] = en
		}
		return byKey
	}
	projectKey := "@github in ~/src/app/.mcp.json"
	byKey := entries()
	gh, ok := byKey[projectKey]
	if !ok {
		t.Fatalf("no entry %q in %v", projectKey, byKey)
	}
	if gh.Choose != nil || !strings.Contains(gh.Note, "not approved") || !strings.Contains(gh.Note, "@github") ||
		!strings.Contains(gh.Note, "--trust-project") || !strings.Contains(gh.Note, "hides yours in ~/.cursor/mcp.json") {
		t.Errorf("the project's entry: choosable %v, note %q", gh.Choose != nil, gh.Note)
	}
	if mine := byKey["@mine in ~/.cursor/mcp.json"]; mine.Choose == nil {
		t.Errorf("the person's own entry cannot be chosen: %q", mine.Note)
	}
	mu.Lock()
	if requests != 0 {
		t.Errorf("the project's server got %d requests before approval", requests)
	}
	mu.Unlock()

	found, err := mcpconfig.Discover(mcpconfig.Places{Dir: filepath.Join(project, "cmd"), Home: h})
	if err != nil {
		t.Fatal(err)
	}
	entry, err := found.Find("github")
	if err != nil {
		t.Fatal(err)
	}
	store, err := session.TrustStore()
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Approve(entry); err != nil {
		t.Fatal(err)
	}
	if gh := entries()[projectKey]; gh.Choose == nil {
		t.Errorf("the approved entry cannot be chosen: %q", gh.Note)
	} else {
		connectPicked(t, gh, srv.URL)
	}
}
