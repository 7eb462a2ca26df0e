package mcpconfig

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// samples is where the sample configs of every format are.
const samples = "../../testdata/configs/"

// fakeEnv is the environment the resolution tests see.
func fakeEnv(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

// TestResolveSamples: each sample config, read by content, each server
// resolved to the target it names, with the format's expansion.
func TestResolveSamples(t *testing.T) {
	env := fakeEnv(map[string]string{
		"NOTES_ROOT": "/srv/notes", "NOTES_TOKEN": "n-secret", "TICKETS_TOKEN": "t-secret",
		"GITHUB_TOKEN": "gh-secret", "DOCS_KEY": "d-secret", "MAPS_TOKEN": "m-secret",
		"USER": "ada", "TICKETS_TENANT": "acme",
	})
	bearer := func(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }
	work := "/work/project"
	tests := []struct {
		file, server string
		format       Format
		want         mcpclient.Target
		secrets      []string
	}{
		{"claude-desktop.json", "filesystem", FormatMCPServers, mcpclient.Target{Kind: mcpclient.TargetStdio,
			Command: []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"}}, nil},
		{"claude-desktop.json", "weather", FormatMCPServers, mcpclient.Target{Kind: mcpclient.TargetStdio,
			Command: []string{"uv", "--directory", "/Users/me/weather", "run", "weather.py"},
			Env:     []string{"WEATHER_API_KEY=not-a-real-key"}}, nil},
		// Claude Code: ${VAR} and ${VAR:-default}.
		{"claude-code.mcp.json", "notes", FormatMCPServers, mcpclient.Target{Kind: mcpclient.TargetStdio,
			Command: []string{"notes-server", "--root", "/srv/notes"}, Env: []string{"NOTES_TOKEN=n-secret"}}, nil},
		{"claude-code.mcp.json", "tickets", FormatMCPServers, mcpclient.Target{Kind: mcpclient.TargetHTTP,
			URL:     "https://tickets.example.com/mcp",
			Headers: http.Header{"Authorization": {"Bearer t-secret"}, "X-Team": {"platform"}}}, []string{"Bearer t-secret", "t-secret"}},
		{"claude-code.mcp.json", "legacy-feed", FormatMCPServers, mcpclient.Target{Kind: mcpclient.TargetHTTP,
			URL: "http://127.0.0.1:9000/sse", Headers: http.Header{}, SSE: true}, nil},
		// Cursor: ${env:VAR}, ${workspaceFolder}, ${userHome}; a url without a type.
		{"cursor.json", "repo-tools", FormatMCPServers, mcpclient.Target{Kind: mcpclient.TargetStdio,
			Command: []string{"node", work + "/tools/server.js", "--home", "/home/ada"}, Env: []string{"GITHUB_TOKEN=gh-secret"}}, nil},
		{"cursor.json", "docs", FormatMCPServers, mcpclient.Target{Kind: mcpclient.TargetHTTP,
			URL: "https://docs.example.com/mcp", Headers: http.Header{"X-Api-Key": {"d-secret"}}}, []string{"d-secret"}},
		{"cursor.json", "search", FormatMCPServers, mcpclient.Target{Kind: mcpclient.TargetHTTP,
			URL: "https://search.example.com/mcp", Headers: http.Header{}}, nil},
		// Windsurf: serverUrl.
		{"windsurf.json", "maps", FormatMCPServers, mcpclient.Target{Kind: mcpclient.TargetHTTP,
			URL: "https://maps.example.com/mcp", Headers: bearer("m-secret")}, []string{"Bearer m-secret", "m-secret"}},
		{"windsurf.json", "git", FormatMCPServers, mcpclient.Target{Kind: mcpclient.TargetStdio,
			Command: []string{"uvx", "mcp-server-git"}}, nil},
		// VS Code: comments, trailing commas, inputs (a password one is a
		// secret), ${env:VAR}, ${workspaceFolder}.
		{"vscode.json", "tickets", FormatVSCode, mcpclient.Target{Kind: mcpclient.TargetHTTP,
			URL: "https://eu.tickets.example.com/mcp", Headers: bearer("typed-api-key")}, []string{"Bearer typed-api-key", "typed-api-key"}},
		{"vscode.json", "lint", FormatVSCode, mcpclient.Target{Kind: mcpclient.TargetStdio,
			Command: []string{work + "/bin/lint-server", "--region", "eu", "--user", "ada"},
			Env:     []string{"LINT_HOME=/home/ada/.lint"}}, nil},
		// Codex: no ${…} expansion; the token and header values come from
		// the variables the entry names.
		{"codex.toml", "docs", FormatCodex, mcpclient.Target{Kind: mcpclient.TargetStdio,
			Command: []string{"npx", "-y", "docs-mcp"}, Env: []string{"DOCS_TOKEN=${NOT_EXPANDED}"}, Dir: "/srv/docs"}, nil},
		{"codex.toml", "tickets", FormatCodex, mcpclient.Target{Kind: mcpclient.TargetHTTP,
			URL:     "https://tickets.example.com/mcp",
			Headers: http.Header{"Authorization": {"Bearer t-secret"}, "X-Team": {"platform"}, "X-Tenant": {"acme"}}}, []string{"Bearer t-secret", "t-secret"}},
		{"codex.toml", "off", FormatCodex, mcpclient.Target{Kind: mcpclient.TargetStdio, Command: []string{"old-server"}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.server, func(t *testing.T) {
			f, err := Load(samples+tc.file, Options{Dir: work, Workspace: work})
			if err != nil {
				t.Fatal(err)
			}
			s, err := f.FindIn(tc.server)
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != tc.format {
				t.Errorf("format %q, want %q", s.Format, tc.format)
			}
			asked := map[string]int{}
			r, err := s.Resolve(Resolver{LookupEnv: env, Home: "/home/ada", Ask: func(in Input) (string, error) {
				asked[in.ID]++
				if in.ID == "api-key" {
					return "typed-api-key", nil
				}
				return in.Default, nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if want.Kind == mcpclient.TargetStdio && want.Dir == "" {
				want.Dir = work // a project's stdio servers run in its folder
			}
			if !reflect.DeepEqual(r.Target, want) {
				t.Errorf("target\n got %+v\nwant %+v", r.Target, want)
			}
			if !slices.Equal(r.Secrets, tc.secrets) {
				t.Errorf("secrets %q, want %q", r.Secrets, tc.secrets)
			}
			for id, n := range asked {
				if n != 1 {
					t.Errorf("input %s asked %d times, want once", id, n)
				}
			}
		})
	}
}

// TestFileOrderAndFormats: servers come in the order the file lists them,
// each file's format told by its content.
func TestFileOrderAndFormats(t *testing.T) {
	for file, want := range map[string][]string{
		"claude-desktop.json":  {"filesystem", "weather"},
		"claude-code.mcp.json": {"notes", "tickets", "legacy-feed"},
		"cursor.json":          {"repo-tools", "docs", "search"},
		"windsurf.json":        {"maps", "git"},
		"vscode.json":          {"tickets", "lint"},
		"codex.toml":           {"docs", "tickets", "off"},
	} {
		f, err := Load(samples+file, Options{Dir: "/"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range f.Servers {
			got = append(got, s.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: servers %q, want %q", file, got, want)
		}
	}
	f, _ := Load(samples+"windsurf.json", Options{})
	if !f.Servers[1].Disabled {
		t.Error("windsurf git: disabled not read")
	}
	f, _ = Load(samples+"codex.toml", Options{})
	if !f.Servers[2].Disabled || f.Servers[0].Disabled {
		t.Error("codex: enabled = false not read")
	}
	if got := f.Servers[1].HeaderNames(); !slices.Equal(got, []string{"Authorization", "X-Team", "X-Tenant"}) {
		t.Errorf("codex tickets header names %q", got)
	}
}

// TestBadConfigs: each kind of bad input is one clear error, naming the
// file (and the line, for syntax), the server and what is wrong.
func TestBadConfigs(t *testing.T) {
	tests := []struct {
		file, server string
		want         []string // all in the error
	}{
		{"malformed.json", "", []string{"malformed.json:4:5: invalid JSON"}},
		{"malformed.toml", "", []string{"malformed.toml:3:", "invalid TOML"}},
		{"not-object.json", "", []string{"not an MCP config"}},
		{"unknown-type.json", "ws", []string{`server "ws" has unknown type "websocket"`}},
		{"both.json", "both", []string{`server "both" has both command and url`}},
		{"neither.json", "empty", []string{`server "empty" has neither command nor url`}},
		{"undefined.json", "undefined", []string{"args[1]", "MCPEEK_TEST_UNSET_TOKEN is not set"}},
		{"unfinished.json", "unfinished", []string{"args[0]", "unfinished ${"}},
		{"wrong-kind.json", "wrong", []string{"wrong-kind.json:6:", `server "wrong": "args": got a number, want a string`}},
		{"unknown-input.json", "s", []string{"${input:nope} is not declared"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			err := loadAndResolve(samples+"bad/"+tc.file, tc.server)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q is more than one line", err)
			}
		})
	}
	// A wrong entry spoils only itself.
	f, err := Load(samples+"bad/wrong-kind.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Servers[0].Resolve(Resolver{LookupEnv: fakeEnv(nil)}); err != nil {
		t.Errorf("the fine entry: %v", err)
	}
	// An unreadable file.
	dir := t.TempDir()
	if err := loadAndResolve(filepath.Join(dir, "absent.json"), ""); err == nil || !strings.Contains(err.Error(), "cannot read the config") {
		t.Errorf("absent file: %v", err)
	}
	if err := loadAndResolve(dir, ""); err == nil || !strings.Contains(err.Error(), "cannot read the config: is a directory") {
		t.Errorf("a directory: %v", err)
	}
}

func loadAndResolve(path, server string) error {
	f, err := Load(path, Options{Dir: "/"})
	if err != nil {
		return err
	}
	s, err := f.FindIn(server)
	if err != nil {
		return err
	}
	_, err = s.Resolve(Resolver{LookupEnv: fakeEnv(map[string]string{"HOME": "/h"})})
	return err
}

// TestExpansionRules: what each format expands, and what it leaves.
func TestExpansionRules(t *testing.T) {
	env := fakeEnv(map[string]string{"A": "alpha", "EMPTY": "", "LOOP": "${LOOP}", "ENVREF": "${env:ENVREF}"})
	tests := []struct {
		format  Format
		arg     string
		want    string
		wantErr string
	}{
		{FormatMCPServers, "${A}", "alpha", ""},
		{FormatMCPServers, "${env:A}-${A}", "alpha-alpha", ""},
		{FormatMCPServers, "${MISSING:-fallback}", "fallback", ""},
		{FormatMCPServers, "${EMPTY:-fallback}", "fallback", ""},
		{FormatMCPServers, "${MISSING:-${A}}", "alpha", ""},
		{FormatMCPServers, "$A and $$ stay", "$A and $$ stay", ""},
		{FormatMCPServers, "${pathSeparator}x${/}", "/x/", ""},
		// One pass: a value holding ${…} is not expanded again, so no
		// reference can loop.
		{FormatMCPServers, "${LOOP}", "${LOOP}", ""},
		{FormatVSCode, "${env:ENVREF}", "${env:ENVREF}", ""},
		{FormatMCPServers, "${MISSING}", "", "MISSING is not set"},
		{FormatMCPServers, "${input:x}", "", "unknown variable ${input:x}"},
		{FormatMCPServers, "${A", "", "unfinished ${"},
		{FormatVSCode, "${A}", "", "unknown variable ${A} (VS Code reads the environment as ${env:A})"},
		{FormatVSCode, "${env:MISSING}", "", "${env:MISSING}: environment variable MISSING is not set"},
		{FormatVSCode, "${workspaceFolderBasename}", "project", ""},
		{FormatVSCode, "${command:pick}", "", "unknown variable ${command:pick}"},
		{FormatCodex, "${A}", "${A}", ""},
	}
	for _, tc := range tests {
		t.Run(string(tc.format)+" "+tc.arg, func(t *testing.T) {
			s := &Server{Name: "s", File: "f.json", Format: tc.format, Command: "cmd", Args: []string{tc.arg}, workspace: "/work/project"}
			r, err := s.Resolve(Resolver{LookupEnv: env, Home: "/home/ada"})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Target.Command[1]; got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestInputWithoutAsker: an entry that needs a VS Code input, resolved
// with nobody to ask, says so with ErrNeedsInput; a failed answer names
// the input.
func TestInputWithoutAsker(t *testing.T) {
	f, err := Load(samples+"vscode.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := f.FindIn("tickets")
	if _, err := s.Resolve(Resolver{LookupEnv: fakeEnv(nil)}); !errors.Is(err, ErrNeedsInput) {
		t.Errorf("no asker: %v, want ErrNeedsInput", err)
	}
	_, err = s.Resolve(Resolver{LookupEnv: fakeEnv(nil), Ask: func(Input) (string, error) { return "", errors.New("no terminal") }})
	if err == nil || !strings.Contains(err.Error(), "${input:region}: no terminal") {
		t.Errorf("failed answer: %v", err)
	}
}

// TestEnvFile: envFile entries come from the file, relative to the
// project, and env overrides them.
func TestEnvFile(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".env"), "A=from-file\nB=also\n")
	write(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"s": {"command": "x", "envFile": ".env", "env": {"B": "from-env"}}}}`)
	f, err := Load(filepath.Join(dir, ".mcp.json"), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.Servers[0].Resolve(Resolver{LookupEnv: fakeEnv(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"A=from-file", "B=from-env"}; !slices.Equal(r.Target.Env, want) {
		t.Errorf("env %q, want %q", r.Target.Env, want)
	}
	if r.Target.Dir != dir {
		t.Errorf("dir %q, want the project %q", r.Target.Dir, dir)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A key a URL takes from a variable is a secret, like a header's.
func TestURLQuerySecret(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers":{"q":{"type":"http","url":"https://q.example.com/mcp?api_key=${QKEY}&region=eu"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, Options{Dir: filepath.Dir(path)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.FindIn("q")
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(Resolver{LookupEnv: func(k string) (string, bool) { return "query-secret-123", k == "QKEY" }})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Secrets, []string{"query-secret-123"}) {
		t.Errorf("secrets %q", r.Secrets)
	}
}
