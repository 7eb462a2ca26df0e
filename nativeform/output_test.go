package nativeform_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/creack/pty"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/muesli/termenv"
)

// Without colour every choice shows which option is chosen by a sign:
// an optional yes/no with a default is ● Yes ○ No (huh's buttons show it
// by colour alone: "Yes     No"), a multi-select's picks are [x].
func TestNoColourMarksEveryChoice(t *testing.T) {
	t.Parallel()
	s := schemaOf(t, `{"type":"object","properties":{
		"notify":{"type":"boolean","default":false},
		"tags":{"type":"array","items":{"anyOf":[{"const":"t1","title":"Red"},{"const":"t2","title":"Blue"}]},"default":["t2"]},
		"size":{"type":"string","enum":["s","l"],"default":"l"}}}`)
	for _, size := range sizes {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			view := openForm(t, request(s, "Choose"), nativeform.Options{}, size.w, size.h).expect("Notify").view()
			for _, want := range []string{"○ Yes   ● No", "[ ] Red", "[x] Blue", "○ s   ● l"} {
				if !strings.Contains(view, want) {
					t.Errorf("the form without colour lacks %q:\n%s", want, view)
				}
			}
			if n := strings.Count(view, "mcpeek fixture is asking for input"); n != 1 {
				t.Errorf("the header is drawn %d times:\n%s", n, view)
			}
		})
	}
}

// The form's colours follow the terminal it is drawn on, not stdout: a
// terminal gets colours though stdout is no terminal (as under go test,
// or with `> result.json`), a file gets none, and NO_COLOR turns them off.
// Not parallel: the colour profile is the process's.
func TestColourFollowsTheOutputDrawnOn(t *testing.T) {
	t.Setenv("TERM", "xterm-256color")
	t.Setenv("NO_COLOR", "")
	t.Setenv("CLICOLOR_FORCE", "")
	t.Setenv("CI", "") // termenv takes a set CI for an output without colours
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	nativeform.UseOutput(tty)
	if p := lipgloss.ColorProfile(); p == termenv.Ascii {
		t.Errorf("drawn on a terminal, the profile is %v, want colours", p)
	}
	nativeform.UseOutput(file)
	if p := lipgloss.ColorProfile(); p != termenv.Ascii {
		t.Errorf("drawn on a file, the profile is %v, want none", p)
	}
	t.Setenv("NO_COLOR", "1")
	nativeform.UseOutput(tty)
	if p := lipgloss.ColorProfile(); p != termenv.Ascii {
		t.Errorf("with NO_COLOR, the profile is %v, want none", p)
	}
}
