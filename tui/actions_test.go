package tui

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// failOnUnknownActions makes every action the interpreter does not know,
// in any test of the package, fail the run: a page or a layer returning a
// new kind of action nobody taught the interpreter shows up in whichever
// test reaches it. The check it returns reports those seen, and whether
// there were any. The actions a test returns on purpose (deliberate) are
// not counted.
func failOnUnknownActions() (check func() bool) {
	var (
		mu   sync.Mutex
		seen []string
	)
	unknownActionSeen = func(a layer.Action) {
		if _, ok := a.(deliberate); ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, fmt.Sprintf("%T", a))
	}
	return func() bool {
		mu.Lock()
		defer mu.Unlock()
		if len(seen) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: the inspector got actions it does not know: %s\n", strings.Join(seen, ", "))
		}
		return len(seen) > 0
	}
}

// testPages are the tabs as newPages makes them, for their titles and
// places.
func testPages() []page.Page { return newPages(&widget.Common{}, page.ToolsFrom{}, "") }

// deliberate is an action no part of the program knows, returned on
// purpose.
type deliberate struct{}

// confused is a layer that answers every key with an action the program
// does not know.
type confused struct{}

func (confused) Update(msg tea.Msg) layer.Action {
	if _, ok := msg.(tea.KeyMsg); ok {
		return layer.Batch{deliberate{}}
	}
	return nil
}
func (confused) View(int, int) string { return "confused" }
func (confused) Help() []key.Binding  { return nil }
func (confused) StatusFooter()        {}

// An action the interpreter does not know is not dropped in silence: the
// status line says so, and the layer that asked stays as it was.
func TestUnknownActionIsReported(t *testing.T) {
	t.Parallel()
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	l := &confused{}
	m.host(l)
	m.Update(keyMsg("x"))
	if !strings.Contains(m.View(), "unknown action tui.deliberate") {
		t.Errorf("an unknown action should be reported on the status line:\n%s", m.View())
	}
	if _, ok := findTop[*confused](m); !ok {
		t.Errorf("the layer that asked should still be on top")
	}
}
