package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/mcpconfig"
)

// The proxy's command line: what it refuses, and why.
func TestProxyCommandLineMistakes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"proxy"}, "name the server"},
		{[]string{"proxy", "@demo"}, "servers --wrap @demo"},
		{[]string{"proxy", "-H", "A: b", "--", "server"}, "-H applies to a URL"},
	} {
		code, _, stderr := run(c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d saying %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
}

// wrapConfig is a config of every format naming a stdio and a URL server.
var wrapConfigs = map[string]string{
	"claude.json": `{"mcpServers": {
  "demo": {"command": "npx", "args": ["-y", "demo-server"], "env": {"API_KEY": "sk-literal-0123456789", "REGION": "eu", "GH_TOKEN": "${GH_TOKEN}"}},
  "remote": {"type": "http", "url": "https://example.com/mcp?tenant=1", "headers": {"Authorization": "Bearer ${TOKEN}"}}}}`,
	"mcp.json": `{"servers": {
  "demo": {"type": "stdio", "command": "npx", "args": ["-y", "demo-server"], "env": {"API_KEY": "sk-literal-0123456789", "REGION": "eu", "GH_TOKEN": "${env:GH_TOKEN}"}},
  "remote": {"type": "http", "url": "https://example.com/mcp?tenant=1", "headers": {"Authorization": "Bearer ${env:TOKEN}"}}}}`,
	"config.toml": `[mcp_servers.demo]
command = "npx"
args = ["-y", "demo-server"]
env = { API_KEY = "sk-literal-0123456789", REGION = "eu" }

[mcp_servers.remote]
url = "https://example.com/mcp?tenant=1"
bearer_token_env_var = "TOKEN"
`,
}

// servers --wrap prints, in each host's format, an entry that mcpeek
// servers --config reads back as the same server run through mcpeek
// proxy, its environment as written and a literal credential not shown.
func TestServersWrapEachFormat(t *testing.T) {
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for file, text := range wrapConfigs {
		cfg := filepath.Join(dir, file)
		writeFile(t, cfg, text)
		for _, format := range []string{"", "claude", "cursor", "vscode", "codex"} {
			args := []string{"servers", "--config", cfg, "--wrap", "@demo"}
			if format != "" {
				args = append(args, "--format", format)
			}
			code, stdout, stderr := run(args...)
			if code != exitOK {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			if strings.Contains(stdout, "sk-literal") || !strings.Contains(stderr, "env API_KEY") {
				t.Errorf("%v: a literal credential is shown, or its leaving out unsaid:\n%s\n%s", args, stdout, stderr)
			}
			srv := readWrapped(t, filepath.Join(dir, "wrapped-"+format+"-"+file), stdout)
			if want := map[string]string{"": file, "codex": "config.toml"}[format]; want == "config.toml" && !strings.HasPrefix(stdout, "[mcp_servers]") {
				t.Errorf("%v: not Codex's TOML:\n%s", args, stdout)
			}
			want := []string{"proxy", "--name", "demo", "--", "npx", "-y", "demo-server"}
			if srv.Command != self || !slices.Equal(srv.Args, want) || srv.Env["REGION"] != "eu" {
				t.Errorf("%v: the entry runs %s %v with env %v", args, srv.Command, srv.Args, srv.Env)
			}
			if transport, err := srv.Transport(); err != nil || transport != mcpconfig.TransportStdio {
				t.Errorf("%v: transport %q, %v", args, transport, err)
			}
		}
	}
}

// readWrapped writes an entry --wrap printed to a file and loads it as
// mcpeek servers --config does.
func readWrapped(t *testing.T, base, text string) *mcpconfig.Server {
	t.Helper()
	path := base + ".json"
	if strings.HasPrefix(text, "[mcp_servers]") {
		path = base + ".toml"
	}
	writeFile(t, path, text)
	code, stdout, stderr := run("servers", "--config", path, "--names")
	if code != exitOK || strings.TrimSpace(stdout) != "demo" {
		t.Fatalf("servers --config %s: exit %d, %q %s\n%s", path, code, stdout, stderr, text)
	}
	f, err := mcpconfig.Load(path, mcpconfig.Options{Dir: filepath.Dir(path)})
	if err != nil || len(f.Servers) != 1 {
		t.Fatalf("loading %s: %v\n%s", path, err, text)
	}
	return f.Servers[0]
}

// A URL server's entry reaches the proxy on --listen, its path, query and
// headers kept, and the command that starts that proxy is said on stderr.
func TestServersWrapURLServer(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "claude.json")
	writeFile(t, cfg, wrapConfigs["claude.json"])
	code, stdout, stderr := run("servers", "--config", cfg, "--wrap", "remote", "--listen", "127.0.0.1:9000")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{`"url": "http://127.0.0.1:9000/mcp?tenant=1"`, `"Authorization": "Bearer ${TOKEN}"`, `"type": "http"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the entry lacks %s:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "proxy --listen 127.0.0.1:9000 --name remote -- 'https://example.com/mcp?tenant=1'") {
		t.Errorf("stderr does not say how to start the proxy: %s", stderr)
	}
}

// --wrap's mistakes.
func TestServersWrapMistakes(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "claude.json")
	writeFile(t, cfg, wrapConfigs["claude.json"])
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--wrap", "@nope"}, `no server named "nope"`},
		{[]string{"--wrap", "@demo", "--json"}, "not a listing"},
		{[]string{"--wrap", "@demo", "--format", "emacs"}, "--format"},
		{[]string{"--format", "codex"}, "go with --wrap"},
	} {
		code, _, stderr := run(append([]string{"servers", "--config", cfg}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, stderr, c.want)
		}
	}
}
