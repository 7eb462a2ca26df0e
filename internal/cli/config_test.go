package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/session"
)

// samples is where the sample configs of every format are.
var samples = func() string {
	dir, err := filepath.Abs("../../testdata/configs")
	if err != nil {
		panic(err)
	}
	return dir + string(filepath.Separator)
}()

// home makes a temporary home directory and a project inside it, where
// runIn runs mcpeek: discovery sees only what the test writes. It returns
// the home and the project.
func home(t *testing.T) (string, string) {
	t.Helper()
	h := t.TempDir()
	project := filepath.Join(h, "src", "app")
	if err := os.MkdirAll(filepath.Join(project, "cmd"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", h)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CODEX_HOME", "")
	return h, project
}

// runIn runs mcpeek in the project's cmd folder (and comes back, so that
// goldens are found).
func runIn(t *testing.T, project string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	back, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(filepath.Join(project, "cmd")); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(back); err != nil {
			t.Fatal(err)
		}
	}()
	return run(args...)
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// copySample copies a sample config to path.
func copySample(t *testing.T, sample, path string) {
	t.Helper()
	data, err := os.ReadFile(samples + sample)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(data))
}

// TestServers: `mcpeek servers` lists what discovery finds, in its order,
// values as written (never expanded), environment and headers by name
// only; the JSON says the same with every file looked for.
func TestServers(t *testing.T) {
	h, project := home(t)
	copySample(t, "claude-code.mcp.json", filepath.Join(project, ".mcp.json"))
	copySample(t, "vscode.json", filepath.Join(project, ".vscode", "mcp.json"))
	copySample(t, "cursor.json", filepath.Join(h, ".cursor", "mcp.json"))
	copySample(t, "claude-desktop.json", filepath.Join(h, ".config", "Claude", "claude_desktop_config.json"))
	copySample(t, "codex.toml", filepath.Join(h, ".codex", "config.toml"))
	copySample(t, "windsurf.json", filepath.Join(h, ".codeium", "windsurf", "mcp_config.json"))
	copySample(t, "bad/wrong-kind.json", filepath.Join(h, ".config", "Code", "User", "mcp.json"))
	writeFile(t, filepath.Join(h, ".claude.json"), fmt.Sprintf(`{"projects": {%q: {"mcpServers": {"local": {"command": "./run.sh", "args": ["a b"]}}}},
		"mcpServers": {"notes": {"command": "other-notes"}, "secret-url": {"url": "https://user:pw@example.com/mcp"}}}`, project))

	t.Run("discovered", func(t *testing.T) {
		code, stdout, stderr := runIn(t, project, "servers")
		if code != exitOK || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		golden.RequireEqual(t, []byte(stdout))
	})
	t.Run("json", func(t *testing.T) {
		code, stdout, stderr := runIn(t, project, "servers", "--json")
		if code != exitOK || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		var got struct {
			Servers []session.Listing
			Files   []session.LookedFor
		}
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatal(err)
		}
		golden.RequireEqual(t, []byte(strings.ReplaceAll(stdout, h, "$HOME")))
	})
	t.Run("config", func(t *testing.T) {
		code, stdout, stderr := runIn(t, project, "servers", "--config", filepath.Join(h, ".codex", "config.toml"))
		if code != exitOK || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		golden.RequireEqual(t, []byte(stdout))
	})
	// No value of a variable, an environment entry or a header shows.
	for _, secret := range []string{"not-a-real-key", "platform", "pw@"} {
		for _, args := range [][]string{{"servers"}, {"servers", "--json"}} {
			if _, stdout, _ := runIn(t, project, args...); strings.Contains(stdout, secret) {
				t.Errorf("%q shows %q", args, secret)
			}
		}
	}
}

// TestServersNone: with no config anywhere, servers says where it looked.
func TestServersNone(t *testing.T) {
	_, project := home(t)
	code, stdout, _ := runIn(t, project, "servers")
	if code != exitOK || !strings.HasPrefix(stdout, "no MCP servers found; looked for:\n  ./.mcp.json\n") ||
		!strings.Contains(stdout, "~/.codex/config.toml") {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
}

// TestConfigBadInput: every kind of bad config input is one line on
// stderr and exit 2, before anything connects.
func TestConfigBadInput(t *testing.T) {
	h, project := home(t)
	writeFile(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {"a": {"command": "x"}, "web": {"url": "https://example.com/mcp"}}}`)
	bad, vscode := samples+"bad", samples+"vscode.json"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"malformed JSON", []string{"caps", "--config", filepath.Join(bad, "malformed.json")}, "malformed.json:4:5: invalid JSON"},
		{"malformed TOML", []string{"caps", "--config", filepath.Join(bad, "malformed.toml")}, "malformed.toml:3:22: invalid TOML"},
		{"unknown type", []string{"caps", "--config", filepath.Join(bad, "unknown-type.json")}, `has unknown type "websocket"`},
		{"command and url", []string{"list", "tools", "--config", filepath.Join(bad, "both.json")}, "has both command and url"},
		{"undefined variable", []string{"caps", "--config", filepath.Join(bad, "undefined.json")}, "MCPEEK_TEST_UNSET_TOKEN is not set"},
		{"unfinished ${", []string{"caps", "--config", filepath.Join(bad, "unfinished.json")}, "unfinished ${"},
		{"unreadable", []string{"caps", "--config", h}, "cannot read the config: is a directory"},
		{"absent", []string{"caps", "--config", filepath.Join(h, "absent.json")}, "cannot read the config"},
		{"several servers", []string{"caps", "--config", filepath.Join(project, ".mcp.json")}, "has 2 servers (a, web): choose one with --server NAME"},
		{"no such server", []string{"caps", "--config", filepath.Join(project, ".mcp.json"), "--server", "b"}, `no server "b" in`},
		{"not discovered", []string{"caps", "@nope"}, `no MCP server named "nope": read ` + filepath.Join(project, ".mcp.json") + " (2); not present: "},
		{"inspector @NAME", []string{"@nope"}, `no MCP server named "nope"`},
		{"--server and words", []string{"caps", "--server", "a", "--", "cmd"}, "give no SERVER words as well"},
		{"words after @NAME", []string{"caps", "@a", "--timeout", "1s"}, "unexpected words after @a: --timeout 1s (flags go before the server)"},
		{"bare @", []string{"caps", "@"}, "@ needs a server's name"},
		{"-H on a command", []string{"caps", "-H", "X: y", "@a"}, "-H applies to a URL"},
		{"-e on a URL", []string{"caps", "-e", "A=b", "@web"}, "-e applies to a command"},
		{"input without a terminal", []string{"caps", "--config", vscode, "--server", "tickets"}, "asks for it on a terminal"},
		{"--cert without --key", []string{"caps", "--cert", "x.pem", "@a"}, "--cert and --key go together"},
		{"--ca-file not PEM", []string{"caps", "--ca-file", filepath.Join(project, ".mcp.json"), "@a"}, "holds no PEM certificate"},
		{"--auth-allow-host not a host", []string{"caps", "--auth-allow-host", "https://idp.corp", "@a"}, "--auth-allow-host or $MCPEEK_AUTH_ALLOW_HOSTS: allowed authorization host \"https://idp.corp\""},
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	stdin := os.Stdin
	os.Stdin = devnull // no terminal to ask for inputs on
	defer func() { os.Stdin = stdin }()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runIn(t, project, tc.args...)
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", code, stdout, stderr, tc.want)
			}
		})
	}
}

// TestConfigConnects: a URL server named in a config is reached with the
// config's headers (the project's config trusted with --trust-project);
// caps says where it came from; the header's token, expanded from the
// environment, never reaches the wire log.
func TestConfigConnects(t *testing.T) {
	_, project := home(t)
	var gotAuth []string
	fix := fixture.HTTPHandler(fixture.Options{}, false)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = append(gotAuth, r.Header.Get("Authorization"))
		fix.ServeHTTP(w, r)
	}))
	defer srv.Close()
	writeFile(t, filepath.Join(project, ".mcp.json"), fmt.Sprintf(`{"mcpServers": {"fix": {"type": "http", "url": %q, "headers": {"Authorization": "Bearer ${FIX_TOKEN}"}}}}`, srv.URL))
	t.Setenv("FIX_TOKEN", "tok-123456")
	wire := filepath.Join(t.TempDir(), "wire.jsonl")
	code, stdout, stderr := runIn(t, project, "caps", "--trust-project", "--wire-log", wire, "@fix")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var caps struct {
		ProtocolVersion string
		Source          session.SourceReport
	}
	if err := json.Unmarshal([]byte(stdout), &caps); err != nil {
		t.Fatal(err)
	}
	want := session.SourceReport{Server: "fix", File: filepath.Join(project, ".mcp.json"), Format: string(mcpconfig.FormatMCPServers), Client: "Claude Code project"}
	if caps.Source != want || caps.ProtocolVersion == "" {
		t.Errorf("caps %+v, want source %+v", caps, want)
	}
	if len(gotAuth) == 0 || gotAuth[0] != "Bearer tok-123456" {
		t.Errorf("Authorization sent: %q", gotAuth)
	}
	log, err := os.ReadFile(wire)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), "tok-123456") {
		t.Error("the wire log holds the token")
	}
	// The same with --config and --server, and -H adding to the config's
	// headers: a file named with --config needs no approval.
	code, _, stderr = runIn(t, project, "list", "tools", "-H", "Authorization: Bearer other-token", "--config", filepath.Join(project, ".mcp.json"), "--server", "fix")
	if code != exitOK || gotAuth[len(gotAuth)-1] != "Bearer other-token" {
		t.Errorf("exit %d, stderr %q, last Authorization %q", code, stderr, gotAuth[len(gotAuth)-1])
	}
}
