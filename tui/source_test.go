package tui

import "testing"

// TestTargetText: a server an MCP config named shows the config before
// the target; one named on the command line shows the target alone.
func TestTargetText(t *testing.T) {
	t.Parallel()
	m := &Model{opts: Options{Target: "npx -y notes-server"}}
	if got := m.opts.targetText(30); got != "npx -y notes-server" {
		t.Errorf("without a source: %q", got)
	}
	m.opts.Source = "@notes in ./.mcp.json"
	if got := m.opts.targetText(30); got != "@notes in ./.mcp.json · npx -y notes-server" {
		t.Errorf("with a source: %q", got)
	}
}
