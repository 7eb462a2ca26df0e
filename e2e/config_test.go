package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// configFile writes an mcpServers config naming the servers given as
// JSON entries, and returns its path.
func configFile(t *testing.T, entries map[string]string) string {
	t.Helper()
	var parts []string
	for name, entry := range entries {
		parts = append(parts, fmt.Sprintf("%q: %s", name, entry))
	}
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {`+strings.Join(parts, ", ")+`}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestConfigServerEndToEnd: a stdio server named in a config, with its
// environment from the config, is called, listed and diagnosed by name.
func TestConfigServerEndToEnd(t *testing.T) {
	cfg := configFile(t, map[string]string{
		"fixture": fmt.Sprintf(`{"command": %q, "args": ["fixture"], "env": {"MCPEEK_UNUSED": "${HOME}"}}`, mcpeekBin),
	})
	r := mcpeek(t, "list", "tools", "--config", cfg, "--server", "fixture")
	if r.code != exitOK || !strings.Contains(r.stdout, `"choose_option"`) {
		t.Fatalf("list: exit %d, stderr %q", r.code, r.stderr)
	}
	r = mcpeek(t, "call", "all_fields", "--on-elicit", "accept-defaults", "--config", cfg)
	if r.code != exitOK {
		t.Errorf("call: exit %d, stderr %q", r.code, r.stderr)
	}
	r = mcpeek(t, "doctor", "--json", "--config", cfg)
	var report struct {
		OK     bool
		Source struct{ Server, File string }
		Steps  []struct{ Step, Status string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		t.Fatalf("doctor: %v\n%s", err, r.stdout)
	}
	var names []string
	for _, s := range report.Steps {
		names = append(names, s.Step+":"+s.Status)
	}
	want := "command:ok start:ok negotiate:ok capabilities:ok tools/list:ok resources/list:ok prompts/list:ok"
	if r.code != exitOK || !report.OK || strings.Join(names, " ") != want || report.Source.Server != "fixture" || report.Source.File != cfg {
		t.Errorf("doctor: exit %d, %+v; want steps %s", r.code, report, want)
	}
}

// TestDoctorNoisyServer: a real server that prints a banner on stdout
// before speaking JSON-RPC: the doctor names the line; without the banner
// the same server passes.
func TestDoctorNoisyServer(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	r := mcpeek(t, "doctor", "--", "sh", "-c", `echo "fixture v0.1 starting"; exec "$0" fixture`, mcpeekBin)
	if r.code != exitConnection || !strings.Contains(r.stdout, `✗ start`) ||
		!strings.Contains(r.stdout, `stdout line 1 is not JSON-RPC: "fixture v0.1 starting"`) {
		t.Errorf("noisy: exit %d\n%s", r.code, r.stdout)
	}
	// What the noise does to a connection: it fails.
	if r := mcpeek(t, "caps", "--", "sh", "-c", `echo "fixture v0.1 starting"; exec "$0" fixture`, mcpeekBin); r.code != exitConnection {
		t.Errorf("caps of the noisy server: exit %d", r.code)
	}
	r = mcpeek(t, "doctor", "--", mcpeekBin, "fixture")
	if r.code != exitOK || !strings.HasSuffix(r.stdout, "all 7 steps passed\n") {
		t.Errorf("quiet: exit %d\n%s", r.code, r.stdout)
	}
}
