// Package keys is the inspector's key map as data: the keys every page
// shares (the tabs', the filter's), the helpers with which each layer of
// tui/layer declares its own (New, Reword, Hint), and the help screen's
// sections. Footers (ShortHelp) and help-screen entries (FullHelp) are
// generated from the same bindings that route the keys, so that no key is
// documented that does not work, and none works undocumented.

package keys

import (
	"fmt"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Map is the keys shared by every page: the tabs' and the filter's. Each
// layer of tui/layer declares its own keys next to it, and the help
// screen gathers the sections (layer.HelpSections). The keys route with
// these bindings, and the footers and the help screen are generated from
// them, so that no key is documented that does not work, and none works
// undocumented. Each group implements bubbles' [help.KeyMap]: ShortHelp
// is the footer, where several bindings may share one entry; FullHelp is
// the help screen, every key spelled out.
type Map struct {
	Tabs   Tabs
	Filter Filter
}

// Tabs keys work on the tabs, when nothing is over them.
type Tabs struct {
	jump                 []key.Binding // 1-7: that tab
	Next, Prev, Up, Down key.Binding
	Filter, Open         key.Binding
	Collapse             key.Binding // close the entry enter expanded
	Focus, Back          key.Binding // into the detail pane, and back to the list
	PageUp, PageDown     key.Binding // scroll the detail pane
	Top, Bottom          key.Binding
	Copy, Save           key.Binding // the pane's text, to the clipboard or a file
	CancelCall           key.Binding
	Earlier, Later       key.Binding // step through a tool's results
	LogView, LogLevel    key.Binding // the Log tab's wire or server log; the server's log level
	Subscribe            key.Binding // a resource's updates
	Reconnect, Help      key.Binding
	Roots                key.Binding // the roots offered to the server
	Authorize            key.Binding // the login waiting, or a new one
	Apps                 key.Binding // the Apps panel: the tool apps opened
	Tasks                key.Binding // the Tasks layer: the tasks followed
	Servers              key.Binding // the server picker: the servers the configs name
	Lock                 key.Binding // the changes since the project's surface lock
	Record               key.Binding // start or stop recording the session to a file
	AsTask               key.Binding // call the selected tool as a task
	Retry                key.Binding // call again a call refused until a page was opened
	EditArgs             key.Binding // a prompt's arguments on several lines
	Accept               key.Binding // the Suite tab: write the pending snapshot
	SaveTest             key.Binding // save the result shown as a test of a suite
	Quit                 key.Binding
}

// Filter keys work while a list's filter is being typed; other keys are
// text.
type Filter struct {
	Done, Leave, Erase, Clear, Quit key.Binding
}

// Reword is a binding with the same keys and help text as k, described
// as desc: a key another package handles, worded for the help screen.
func Reword(k key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(k.Keys()...), key.WithHelp(k.Help().Key, desc))
}

// New is a binding of keys, shown as help and described as desc.
func New(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// NewMap is the key map of tabs titled tabs, in the order of the tab bar:
// 1 jumps to the first.
func NewMap(tabs ...string) Map {
	b := New
	k := Map{
		Tabs: Tabs{
			Next:       b("tab", "next tab", "tab"),
			Prev:       b("shift+tab", "previous tab", "shift+tab"),
			Up:         b("↑/k", "up", "up", "k"),
			Down:       b("↓/j", "down", "down", "j"),
			Focus:      b("→/l", "into the pane", "right", "l"),
			Back:       b("←/h", "back to the list", "left", "h"),
			PageUp:     b("pgup", "page up", "pgup"),
			PageDown:   b("pgdown", "page down", "pgdown"),
			Top:        b("home/g", "top", "home", "g"),
			Bottom:     b("end/G", "end", "end", "G"),
			Filter:     b("/", "filter the list", "/"),
			Open:       b("enter", "call, read, get, expand, run a test", "enter"),
			Collapse:   b("x", "close the expanded entry", "x"),
			Copy:       b("y", "copy the pane (OSC 52: the terminal must support it)", "y"),
			Save:       b("w", "save the pane to a file", "w"),
			CancelCall: b("esc", "cancel the running call or test", "esc"),
			Earlier:    b("[", "the tool's earlier result", "["),
			Later:      b("]", "the tool's later result", "]"),
			LogView:    b("v", "Log tab: the wire or the server's log", "v"),
			LogLevel:   b("L", "the server's log level", "L"),
			Subscribe:  b("s", "(un)subscribe to a resource", "s"),
			Reconnect:  b("r", "reconnect", "r"),
			Roots:      b("R", "roots offered to the server", "R"),
			Authorize:  b("a", "sign in again (OAuth)", "a"),
			Apps:       b("A", "the Apps panel (tool apps)", "A"),
			Tasks:      b("T", "the tasks followed", "T"),
			Servers:    b("S", "another server from your MCP configs", "S"),
			Lock:       b("D", "the changes since mcpeek/surface.lock.json", "D"),
			Record:     b("ctrl+r", "record the session to a file, or stop", "ctrl+r"),
			AsTask:     b("t", "call the tool as a task (if it may run as one)", "t"),
			Retry:      b("c", "call it again once done on the page it needs", "c"),
			EditArgs:   b("e", "a prompt's arguments on several lines", "e"),
			Accept:     b("u", "Suite tab: accept the pending snapshot (as test -u)", "u"),
			SaveTest:   b("+", "save the result shown as a test (mcpeek test)", "+"),
			Help:       b("?", "these keys", "?"),
			Quit:       b("q/ctrl+c", "quit (asks if pending)", "q", "ctrl+c"),
		},
		Filter: Filter{
			Done:  b("enter", "apply", "enter"),
			Leave: b("esc", "leave (no filter)", "esc"),
			Erase: b("backspace", "erase", "backspace"),
			Clear: b("ctrl+u", "clear", "ctrl+u"),
			Quit:  b("ctrl+c", "quit", "ctrl+c"),
		},
	}
	k.Tabs.jump = make([]key.Binding, len(tabs))
	for i, name := range tabs {
		n := string(rune('1' + i))
		k.Tabs.jump[i] = b(n, name, n)
	}
	return k
}

// Hint is a footer entry for bindings: their keys under one label.
func Hint(label, desc string, bs ...key.Binding) key.Binding {
	var keys []string
	for _, b := range bs {
		keys = append(keys, b.Keys()...)
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, desc))
}

var (
	_ help.KeyMap = Tabs{}
	_ help.KeyMap = Filter{}
)

// JumpTo is the index of the tab a key jumps to.
func (k Tabs) JumpTo(msg tea.KeyMsg) (int, bool) {
	for i, b := range k.jump {
		if key.Matches(msg, b) {
			return i, true
		}
	}
	return 0, false
}

// jumps are the jump keys in short: "1-7" for seven tabs.
func (k Tabs) jumps() string {
	if len(k.jump) < 2 {
		return "1"
	}
	return fmt.Sprintf("1-%d", len(k.jump))
}

// ShortHelp is the footer of the tabs.
func (k Tabs) ShortHelp() []key.Binding {
	return []key.Binding{
		Hint(k.jumps()+"/tab", "switch", append(k.jump[:], k.Next)...),
		Hint("↑↓", "move", k.Up, k.Down),
		Hint("→", "pane", k.Focus),
		Hint("/", "filter", k.Filter),
		Hint("enter", "open", k.Open),
		Hint("?", "keys", k.Help),
		Hint("q", "quit", k.Quit),
	}
}

// FullHelp lists every key of the tabs.
func (k Tabs) FullHelp() [][]key.Binding {
	return [][]key.Binding{{
		Hint(k.jumps(), "go to a tab", k.jump[:]...),
		Hint("tab", "next (shift+tab: previous)", k.Next, k.Prev),
		Hint("↑↓/jk", "move, or scroll the pane", k.Up, k.Down),
		Hint("→←/lh", "into the pane, and out", k.Focus, k.Back),
		Hint("pgup/pgdn", "page the pane", k.PageUp, k.PageDown),
		Hint("g/G", "top/end (home/end too)", k.Top, k.Bottom),
		Hint("y/w", "copy (needs OSC 52), save", k.Copy, k.Save),
		k.Filter, k.Open, k.AsTask, k.Retry, k.EditArgs, k.SaveTest, k.Accept, k.Collapse, Hint("[/]", "a tool's earlier/later result", k.Earlier, k.Later), k.CancelCall,
		Hint("v/L", "server log (Log tab); its level", k.LogView, k.LogLevel), k.Subscribe, k.Reconnect, k.Roots, k.Authorize, k.Apps, k.Tasks, k.Servers, k.Lock, k.Record, k.Help, k.Quit,
	}}
}

// PaneHelp is the footer while a pane takes ↑/↓; back, when ← leaves
// it for a list.
func (k Tabs) PaneHelp(back bool) []key.Binding {
	bs := []key.Binding{
		Hint(k.jumps()+"/tab", "switch", append(k.jump[:], k.Next)...),
		Hint("↑↓", "scroll", k.Up, k.Down),
		Hint("g/G", "top/end", k.Top, k.Bottom),
		Hint("y", "copy", k.Copy),
	}
	if back {
		bs = append(bs, Hint("←", "back", k.Back))
	}
	return append(bs, Hint("?", "keys", k.Help), Hint("q", "quit", k.Quit))
}

// ShortHelp is the footer while a filter is typed.
func (k Filter) ShortHelp() []key.Binding {
	return []key.Binding{k.Done, k.Leave, k.Erase, k.Clear, k.Quit}
}

// FullHelp lists the filter's keys.
func (k Filter) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Done, k.Leave, k.Erase, k.Clear, k.Quit}}
}

// Section is a titled group of keys on the help screen.
type Section struct {
	Title string
	Keys  help.KeyMap
}

// Bindings are every binding of the section, as the help screen lists them.
func (sec Section) Bindings() []key.Binding {
	var out []key.Binding
	for _, group := range sec.Keys.FullHelp() {
		out = append(out, group...)
	}
	return out
}
