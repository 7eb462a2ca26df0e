// Package page holds the inspector's tabs, one type per tab, behind one
// small interface, [Page]. The program builds the tab bar, the jump keys,
// the footer and the dispatch of keys from its list of pages, so adding a
// tab is one new file here and one line in the list.
//
// A page holds what it shows for the connected server and never reaches
// into the program (this package does not import it): it asks the
// program to act (call a tool, read a resource, open a layer) by
// returning an [Action], and gets the outcome as a message. A page is
// tested by sending it messages and reading its view or the action it
// returns.
package page

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// Page is one tab.
type Page interface {
	// Title is the tab's name in the tab bar (its jump key is its place).
	Title() string
	// Help is the footer's keys while the page shows and nothing lies
	// over it.
	Help() []key.Binding
	// Update handles a message for the page: the keys the program does
	// not take itself (switching tabs, quitting, help…) while the page
	// shows, and its own messages. A key that is not the page's returns
	// [layer.Pass].
	Update(msg tea.Msg) Action
	// View draws the page in width × height cells.
	View(width, height int) string
	// Focus tells the page it shows (true) or that another tab does.
	Focus(shown bool)
}

// Filtered is a page with a list whose filter may be typed: while it is,
// every key but the quit key is the page's, and the footer is the
// filter's keys.
type Filtered interface {
	Filtering() bool
}

// Action is what a page asks of the program: the actions of layers
// ([layer.Open] a layer, [layer.Cmd], [layer.Pass]…), or a page's own.
type Action = layer.Action

// Show gives a page that shows text the text and its room: the program
// sends it after every message while the page shows, the text made by
// the program from the connection (redacted of the secrets it knows).
type Show struct {
	Text          string
	Width, Height int
}

// Filterer is a page with a list whose filter may be typed: while it is,
// the program gives it every key but its own few (quit), and the footer
// shows the filter's keys.
type Filterer interface {
	Filtering() bool
}

// Copier is a page whose text y copies and w saves: Copy is that text,
// unwrapped, unstyled and redacted as shown, or "" when there is nothing.
type Copier interface {
	Copy() string
}

// Saver is a page that w saves something of other than its text (the
// Resources tab: a resource's bytes), when ok, in a file it suggests the
// name of.
type Saver interface {
	Save() (name string, data []byte, ok bool)
}

// closesHint is the line under an entry shown whole: how to close it.
func closesHint(c *widget.Common) string {
	k := c.Keys.Tabs.Collapse
	return c.KeyLine(keys.Hint(k.Help().Key, "closes", k))
}
