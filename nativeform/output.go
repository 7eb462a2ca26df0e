package nativeform

import (
	"io"
	"os"
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"golang.org/x/term"
)

// UseOutput makes the forms' colours follow w, the terminal they are
// drawn on (stderr), not stdout, which a person may have sent to a file:
// colours when w is a terminal that has them and NO_COLOR is unset, none
// otherwise. Without colour every choice is marked by a sign
// (● and ○, [x] and [ ]), never by colour alone.
func UseOutput(w io.Writer) {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		w = u.Unwrap()
	}
	out := termenv.NewOutput(w)
	lipgloss.SetColorProfile(out.EnvColorProfile())
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		// The terminal is asked once per run: it may take a moment to answer.
		darkOnce.Do(func() { lipgloss.SetHasDarkBackground(out.HasDarkBackground()) })
	}
}

var darkOnce sync.Once

// colour reports whether the forms are drawn in colour.
func colour() bool { return lipgloss.ColorProfile() != termenv.Ascii }
