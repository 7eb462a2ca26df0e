// The layers' keys, gathered: each layer declares its own key map next to
// it (RootsKeys in roots.go, URLKeys in urlcard.go…), and registers it here
// with one line, for the help screen and for the test that every key bound
// is documented.

package layer

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// keyGroup is one layer's keys: name is the layer's, title its section on
// the help screen, or "" for a layer whose footer lists every key it
// takes (the quit and save prompts, the pickers, the roots…).
type keyGroup struct {
	name, title string
	keys        help.KeyMap
}

// keyGroups are the layers' keys, the titled ones in the order of the
// help screen, after the tabs'. A layer with keys of its own adds a line.
var keyGroups = []keyGroup{
	{"AppCard", "App card (answering in the browser)", AppCardKeys},
	{"Form", "Forms", FormKeys},
	// The native form's own controls (date, slider, choice), which the
	// form handles: here for the help screen.
	{"Controls", "Form controls (date, slider, choice, multi-select)", nativeform.ControlKeys},
	{"URL", "URL consent card", URLKeys},
	{"Login", "Login card (OAuth)", LoginKeys},
	{"Apps", "Apps panel (tool apps)", AppsKeys},
	{"AppTools", "An app's own tools (t on the Apps panel)", AppToolsKeys},
	{"Tasks", "Tasks", TasksKeys},
	{"Lock", "Changes since the surface lock (D)", LockKeys},
	{"JSON", "Arguments as JSON", JSONKeys},
	{"PromptArgs", "A prompt's arguments on several lines (e)", PromptArgsKeys},
	{"Quit", "", QuitKeys},
	{"Save", "", SaveKeys},
	{"SaveTest", "", SaveTestKeys},
	{"TestReview", "", TestReviewKeys},
	{"Level", "", LevelKeys},
	{"Servers", "", ServerKeys},
	{"Roots", "", RootsKeys},
}

// The bindings several layers share, worded alike wherever they work.
var (
	upKey   = keys.New("↑/k", "up", "up", "k")
	downKey = keys.New("↓/j", "down", "down", "j")
	backKey = keys.New("esc", "back", "esc")

	quitKey = keys.New("ctrl+c", "quit", "ctrl+c")
)

// HelpSections are the groups of keys on the help screen: the tabs', then
// the layers' that have a title. The filter's, the quit prompt's and the
// pickers' keys are not among them: their footers list them, and they are
// there whenever those keys work.
func HelpSections(c *widget.Common) []keys.Section {
	out := []keys.Section{{Title: "Tabs", Keys: c.Keys.Tabs}}
	for _, g := range keyGroups {
		if g.title != "" {
			out = append(out, keys.Section{Title: g.title, Keys: g.keys})
		}
	}
	return out
}

// PaneKeys scroll a layer's pane: by lines, by pages, and to its ends.
type PaneKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// paneKeys are the bindings of [PaneKeys], alike on every layer.
var paneKeys = PaneKeys{
	Up:       upKey,
	Down:     downKey,
	PageUp:   keys.New("pgup", "page up", "pgup"),
	PageDown: keys.New("pgdown", "page down", "pgdown"),
	Top:      keys.New("home/g", "top", "home", "g"),
	Bottom:   keys.New("end/G", "end", "end", "G"),
}

// scroll moves v for one of the keys, reporting whether msg was one.
func (k PaneKeys) scroll(v *viewport.Model, msg tea.KeyMsg) bool {
	switch {
	case key.Matches(msg, k.Up):
		v.ScrollUp(1)
	case key.Matches(msg, k.Down):
		v.ScrollDown(1)
	case key.Matches(msg, k.PageUp):
		v.PageUp()
	case key.Matches(msg, k.PageDown):
		v.PageDown()
	case key.Matches(msg, k.Top):
		v.GotoTop()
	case key.Matches(msg, k.Bottom):
		v.GotoBottom()
	default:
		return false
	}
	return true
}

// hint is the keys as one entry of a footer.
func (k PaneKeys) hint() key.Binding {
	return keys.Hint("↑↓/pgup/pgdn/g/G", "scroll", k.all()...)
}

// all are the keys, for a layer's full help.
func (k PaneKeys) all() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}
