// The changes since the surface lock (D): the connected server compared
// with the surface the project committed (mcpeek/surface.lock.json), each
// change classified by the rules of mcpeek diff, in a scrollable pane.

package layer

import (
	"bytes"
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/internal/surface"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// LockCheck is what the program knows of the connected server against
// the project's surface lock.
type LockCheck struct {
	// File is the lock looked for.
	File string
	// Done: the check ended, with Status or Err.
	Done bool
	// Status is the comparison; nil when the project has no lock.
	Status *surface.LockStatus
	// Err says why the lock could not be read or the server's surface
	// not taken.
	Err error
}

// Lock shows the changes since the project's surface lock: the report
// mcpeek diff prints, grouped by level, or why there is none.
type Lock struct {
	c     *widget.Common
	check func() LockCheck
	pane  widget.Pane
	w, h  int // the room it is drawn in
}

// NewLock is the layer over check, asked after every message while it is
// on top: the check may end while it shows.
func NewLock(c *widget.Common, check func() LockCheck) *Lock {
	return &Lock{c: c, check: check, w: c.Width, h: c.Height}
}

// Update takes the keys and the room; [Lock.Refresh] gives the pane its
// text.
func (l *Lock) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		l.w, l.h = msg.Width, msg.Height
		l.Refresh()
	case tea.KeyMsg:
		k, v := LockKeys, &l.pane.Viewport
		switch {
		case key.Matches(msg, k.Quit):
			return AskQuit{}
		case key.Matches(msg, k.Close):
			return Close{}
		case k.scroll(v, msg):
		}
	}
	return nil
}

// Refresh gives the pane the check's text, under the title.
func (l *Lock) Refresh() { l.pane.Set(LockText(l.check()), l.w, l.h-3) }

// LockText is a check in words: the classified report, or why there is
// none. What the server named in it is cleaned for the terminal.
func LockText(c LockCheck) string {
	switch {
	case !c.Done:
		return fmt.Sprintf("Comparing the connected server with %s…", c.File)
	case c.Err != nil:
		return widget.Clean(fmt.Sprintf("%s could not be compared with the connected server:\n\n%v", c.File, c.Err))
	case c.Status == nil:
		return fmt.Sprintf("No surface lock here (%s).\n\nCommit the server's surface to see here what changed since:\n\n"+
			"  mcpeek surface -- SERVER > %s", c.File, surface.LockFile)
	}
	var b bytes.Buffer
	if err := c.Status.Report().Write(&b, "text"); err != nil {
		return widget.Clean(err.Error())
	}
	return widget.Clean(b.String())
}

// View draws the title over the pane.
func (l *Lock) View(width, height int) string {
	return l.c.Styles.Title.Render(widget.Line("Changes since the surface lock", width)) + "\n\n" + l.pane.View(l.c, "")
}

// Help is the layer's keys.
func (l *Lock) Help() []key.Binding { return LockKeys.ShortHelp() }

// LockKeyMap holds the keys that work on the changes since the project's
// surface lock.
type LockKeyMap struct {
	PaneKeys
	Close, Quit key.Binding
}

// LockKeys are the bindings of [LockKeyMap].
var LockKeys = LockKeyMap{
	PaneKeys: paneKeys,
	Close:    keys.New("esc/D", "close", "esc", "D"),
	Quit:     keys.New("q/ctrl+c", "quit", "q", "ctrl+c"),
}

// ShortHelp is the footer of the changes since the surface lock.
func (k LockKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.hint(), k.Close, k.Quit}
}

// FullHelp lists the keys of the changes since the surface lock.
func (k LockKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{append(k.all(), k.Close, k.Quit)}
}
