package mcpclient_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestProtocolLayerLinksNoUI keeps the packages that speak MCP or serve the
// app bridge, and the file policy they share, free of terminal UI code:
// they must build without bubbletea, huh or lipgloss (docs/architecture.md,
// "Packages").
func TestProtocolLayerLinksNoUI(t *testing.T) {
	for _, pkg := range []string{"../mcpclient", "../apphost", "../formschema", "../internal/safefile"} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		var ui []string
		for _, dep := range strings.Fields(string(out)) {
			if strings.Contains(dep, "charmbracelet") {
				ui = append(ui, dep)
			}
		}
		if len(ui) > 0 {
			t.Errorf("%s links terminal UI packages: %s", pkg, strings.Join(ui, ", "))
		}
	}
}
