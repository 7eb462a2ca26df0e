package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// libraryServer has static resources whose URIs share a long prefix, and
// a template of notes.
func libraryServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "library", Version: "1"}, nil)
	text := func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	}
	for _, name := range []string{"architecture.md", "changelog.md", "readme.md"} {
		s.AddResource(&mcp.Resource{Name: name, URI: "demo://resource/static/document/" + name, MIMEType: "text/markdown", Size: 2048}, text)
	}
	s.AddResourceTemplate(&mcp.ResourceTemplate{Name: "note", Title: "A note", URITemplate: "demo://notes/{id}", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "the note at " + req.Params.URI}}}, nil
		})
	return s
}

// Resources whose URIs share a prefix are told apart in the list, and the
// pane shows the whole URI, the MIME type and the size.
func TestResourcesShowWhatTellsThemApart(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(libraryServer, "")}, 80, 24).keys("2").expect("changelog")
	in.keys("j")
	view := in.screen()
	wantOnScreen(t, view, "…/architecture.md", "…/changelog.md", "…/readme.md", "A note",
		"demo://resource/static/document/changelog.md", "text/markdown", "2.0 KiB (2048 bytes)")
}

// Enter on a template asks for its variables, and reads the URI they
// expand it to.
func TestResourceTemplateExpandedAndRead(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(libraryServer, "")}, 100, 30).keys("2").expect("A note")
	in.keys("/", "n", "o", "t", "e", "enter", "enter").expect("Variables of demo://notes/{id}")
	in.tm.Type("a b")
	in.keys("ctrl+s").expect("the note at demo://notes/a%20b")

	// The form starts from the variables last given.
	in.keys("enter").expect("Variables of demo://notes/{id}")
	in.tm.Type("c")
	in.keys("ctrl+s").expect("the note at")
	wantOnScreen(t, in.screen(), "the note at demo://notes/a%20bc")
}

// counterServer counts its calls, and echoes its argument.
func counterServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "counter", Version: "1"}, nil)
	var n atomic.Int64
	s.AddTool(&mcp.Tool{Name: "count", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("call number %d", n.Add(1))}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo says " + args.Text}}}, nil
		})
	return s
}

// [ and ] step through a tool's earlier results.
func TestStepThroughEarlierResults(t *testing.T) {
	t.Parallel()
	// Wait for the tool list: "count" alone also matches the server's name.
	in := open(t, Options{Connect: inMemory(counterServer, "")}, 100, 30).expect("enter calls it")
	in.keys("enter").expect("call number 1").keys("enter").expect("call number 2").keys("enter").expect("call number 3")
	in.keys("[", "[").expect("result 1 of 3").keys("]").expect("result 2 of 3")
	view := in.screen()
	wantOnScreen(t, view, "result 2 of 3", "call number 2", "[/] earlier/later result")
	if strings.Contains(view, "call number 3") {
		t.Errorf("the latest result shows instead of the second:\n%s", view)
	}
}

// callEcho calls echo, typing text into its arguments form first.
func (in *inspector) callEcho(text string) *inspector {
	in.t.Helper()
	in.selectTool("echo").keys("enter").expect("Arguments for echo")
	in.tm.Type(text)
	return in.keys("ctrl+s").expect("echo says " + text)
}

// The arguments form starts from the tool's last arguments.
func TestArgumentsFormIsPrefilled(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(counterServer, "")}, 100, 30).expect("echo")
	in.callEcho("hello").keys("enter").expect("Arguments for echo")
	in.keys("ctrl+s").expect("result 2 of 2")
	wantOnScreen(t, in.screen(), "result 2 of 2", "echo says hello")
}

// The last arguments are remembered across runs, per server, in the
// state folder, readable by the user alone.
func TestArgumentsAreRememberedAcrossRuns(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "mcpeek") // made by the first save
	opts := Options{Connect: inMemory(counterServer, ""), Target: "counter --token secret", StateDir: state}
	open(t, opts, 100, 30).expect("echo").callEcho("remembered")

	path, err := argsPath(state, argsServer("counter", opts.Target))
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	eventually(t, "the state file written", func() bool {
		b, err = os.ReadFile(path)
		return err == nil
	})
	if filepath.Dir(path) != state {
		t.Errorf("the state file %s is outside the state folder %s", path, state)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the state file's mode is %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the state folder's mode is %v (%v), want 0700", fi.Mode().Perm(), err)
	}
	var saved struct{ Tools map[string]map[string]string }
	if err := json.Unmarshal(b, &saved); err != nil || strings.Contains(string(b), "secret") || saved.Tools["echo"]["text"] != "remembered" {
		t.Errorf("the state file holds:\n%s", b)
	}

	in := open(t, opts, 100, 30).expect("echo")
	in.selectTool("echo").keys("enter").expect("Arguments for echo")
	in.keys("ctrl+s").expect("echo says remembered")

	// Another server keeps its own arguments.
	other := open(t, Options{Connect: inMemory(counterServer, ""), Target: "counter --other", StateDir: state}, 100, 30).expect("echo")
	other.selectTool("echo").keys("enter").expect("Arguments for echo")
	other.keys("ctrl+s").expect("echo says")
	if view := other.screen(); strings.Contains(view, "echo says remembered") {
		t.Errorf("another server's arguments were used:\n%s", view)
	}
}

// The JSON editor, for a schema a form cannot show, starts from the
// tool's last arguments too.
func TestJSONEditorIsPrefilled(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(nestedServer, "")}, 100, 30).expect("deep")
	in.keys("enter").expect("as JSON")
	in.keys("down", "end", "backspace").typeText("7") // the skeleton's "r": 0 made 7
	in.keys("ctrl+s").expect(`got {`).keys("enter").expect("as JSON").keys("ctrl+s").expect("result 2 of 2")
	wantOnScreen(t, in.screen(), "result 2 of 2", `"r":7`)
}

// Without a state folder given, mcpeek's is in the user's state
// directory: $XDG_STATE_HOME/mcpeek when that is an absolute path, else
// ~/.local/state/mcpeek.
func TestStateDirFollowsXDG(t *testing.T) {
	xdg, home := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	for _, c := range []struct{ xdg, given, want string }{
		{xdg, "", filepath.Join(xdg, "mcpeek")},
		{"", "", filepath.Join(home, ".local", "state", "mcpeek")},
		{"relative/state", "", filepath.Join(home, ".local", "state", "mcpeek")},
		{xdg, "/given/folder", "/given/folder"},
	} {
		t.Setenv("XDG_STATE_HOME", c.xdg)
		got, err := stateDir(c.given)
		if err != nil || got != c.want {
			t.Errorf("XDG_STATE_HOME=%q, given %q: the state folder is %q (%v), want %q", c.xdg, c.given, got, err, c.want)
		}
		path, err := argsPath(c.given, argsServer("srv", "srv --stdio"))
		if err != nil || filepath.Dir(path) != c.want {
			t.Errorf("XDG_STATE_HOME=%q, given %q: the state file is %q (%v), want one in %q", c.xdg, c.given, path, err, c.want)
		}
	}
}
