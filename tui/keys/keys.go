// Package keys is the inspector's key map as data: the bindings of every
// area (tabs, filter, forms, cards, layers), their footers (ShortHelp) and
// their help-screen entries (FullHelp), generated from the same bindings so
// that no key is documented that does not work, and none works undocumented.

package keys

import (
	"fmt"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/nativeform"
)

// Map is every key of the inspector, grouped by the layer that takes
// them. The layers route keys with these bindings, and the footers and
// the help screen are generated from them, so that no key is documented
// that does not work, and none works undocumented. Each group implements
// bubbles' [help.KeyMap]: ShortHelp is the footer, where several bindings
// may share one entry; FullHelp is the help screen, every key spelled out.
type Map struct {
	Tabs   Tabs
	Filter Filter
	App    App
	Form   Form
	URL    URL
	JSON   JSON
	// promptArgs are the keys of a prompt's arguments on several lines.
	PromptArgs PromptArgs
	Quit       Quit
	Save       Save
	// SaveTest are the keys of saving a result as a test (+).
	SaveTest SaveTest
	Level    Level
	Servers  Level // the server picker's: the same keys as the level picker's
	Roots    Roots
	Login    Login
	Apps     Apps
	// appTools are the keys of an app's own tools (the Apps panel's t).
	AppTools AppTools
	Tasks    Tasks
	// Lock is the keys of the changes since the surface lock (D).
	Lock Lock
	// controls are the native form's own controls (date, slider,
	// choice), which the form handles; here for the help screen.
	Controls nativeform.ControlKeyMap
}

// Tasks keys work on the Tasks layer.
type Tasks struct {
	Up, Down, Cancel, List, Close, Quit key.Binding
}

// Lock keys work on the changes since the project's surface lock.
type Lock struct {
	Up, Down, PageUp, PageDown, Top, Bottom, Close, Quit key.Binding
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

// App keys work while an elicitation is answered in its app (the app card).
type App struct {
	Abandon key.Binding
}

// Form keys work in forms. The form itself (nativeform) handles submit,
// decline, cancel and whole message, and in a sampling request's form
// reject, new line and scrolling the request; the inspector handles next,
// and interrupt, which asks before quitting as q does on the tabs.
type Form struct {
	Submit, Decline, Cancel, wholeMessage  key.Binding
	Reject, newLine, scrollUp, scrollDown  key.Binding // a sampling request's form
	Accept, nextSuggestion, prevSuggestion key.Binding // a completion under an arguments form's field
	Next                                   key.Binding // the next pending request
	Interrupt                              key.Binding
}

// SaveTest keys work while a result is saved as a test: the suite file
// (picked among those under mcpeek/, or a new name), the test's name, and
// the redactions proposed; other keys are text.
type SaveTest struct {
	Next, Up, Down, Toggle, Rerun, Confirm, Cancel, Quit key.Binding
}

// Roots keys work on the roots layer; while a root is typed, other keys
// are text.
type Roots struct {
	Up, Down, Add, Remove, Close key.Binding
	Confirm, Back, Quit          key.Binding // confirm and back while a root is typed
}

// Login keys work on the login card; other keys are text, the address
// pasted.
type Login struct {
	Copy, Send, Hide, Quit key.Binding // copy: while the field is empty
}

// Apps keys work on the Apps panel, the tool apps the calls opened.
type Apps struct {
	Up, Down, Copy, Resend, Close key.Binding
	Tools, Theme                  key.Binding // the app's own tools; the theme it is told of
	PageUp, PageDown, Back, Quit  key.Binding
}

// AppTools keys work on the layer of an app's own tools; other keys are the
// arguments typed.
type AppTools struct {
	Up, Down, Call, Relist       key.Binding
	PageUp, PageDown, Back, Quit key.Binding
}

// Level keys choose the level the server logs at.
type Level struct {
	Up, Down, Choose, Back, Quit key.Binding
}

// URL keys work on the URL consent card.
type URL struct {
	Open, Decline, Cancel, next, Quit key.Binding
	Copy, Close                       key.Binding // a page the browser did not open, shown to copy
}

// PromptArgs keys work in the multi-line editor of a prompt's arguments;
// other keys are text, enter a new line.
type PromptArgs struct {
	Next, Prev, Get, Back, Quit key.Binding
}

// JSON keys work in the JSON editor of a tool's arguments.
type JSON struct {
	Call, Back, Quit key.Binding
}

// Quit keys answer the quit prompt: confirm quits, any other key stays.
type Quit struct {
	Confirm, Stay key.Binding
}

// Save keys answer the prompt for a file name to save the pane in; other
// keys are text.
type Save struct {
	Confirm, Cancel, Quit key.Binding
}

// reword is a binding with the same keys and help text of the inspector's.
func reword(k key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(k.Keys()...), key.WithHelp(k.Help().Key, desc))
}

func NewMap(tabs ...string) Map {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	next := b("ctrl+n", "next pending request", "ctrl+n")
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
		App: App{Abandon: b("n", "answer natively instead", "n")},
		Form: Form{
			// The form handles its own keys; these are its bindings, worded
			// for the help screen.
			Submit:         reword(nativeform.Keys.Submit, "submit"),
			Decline:        reword(nativeform.Keys.Decline, "decline"),
			Cancel:         reword(nativeform.Keys.Cancel, "cancel"),
			wholeMessage:   reword(nativeform.Keys.WholeMessage, "show the whole message"),
			Reject:         reword(nativeform.SampleKeys.Reject, "reject a sampling request"),
			newLine:        reword(nativeform.SampleKeys.NewLine, "new line in a reply"),
			scrollUp:       reword(nativeform.SampleKeys.ScrollUp, "scroll a sampling request up"),
			scrollDown:     reword(nativeform.SampleKeys.ScrollDown, "scroll it down"),
			Accept:         reword(nativeform.SuggestKeys.Accept, "accept a completion"),
			nextSuggestion: reword(nativeform.SuggestKeys.Next, "next completion"),
			prevSuggestion: reword(nativeform.SuggestKeys.Prev, "previous completion"),
			Next:           next,
			Interrupt:      reword(nativeform.Keys.Interrupt, "quit (asks if pending)"),
		},
		URL: URL{
			Open:    b("o", "open the page (consent)", "o"),
			Decline: b("d", "decline", "d"),
			Cancel:  b("esc/c", "cancel", "esc", "c"),
			next:    next,
			Quit:    b("q/ctrl+c", "quit", "q", "ctrl+c"),
			Copy:    b("y", "copy a URL the browser did not open", "y"),
			Close:   b("esc/enter", "close it", "esc", "enter"),
		},
		JSON: JSON{
			Call: b("ctrl+s", "call the tool", "ctrl+s"),
			Back: b("esc", "back", "esc"),
			Quit: b("ctrl+c", "quit", "ctrl+c"),
		},
		PromptArgs: PromptArgs{
			Next: b("tab", "next argument", "tab"),
			Prev: b("shift+tab", "previous argument", "shift+tab"),
			Get:  b("ctrl+s", "get the prompt", "ctrl+s"),
			Back: b("esc", "back", "esc"),
			Quit: b("ctrl+c", "quit", "ctrl+c"),
		},
		Quit: Quit{
			Confirm: b("y", "quit and cancel them", "y", "q", "ctrl+c"),
			Stay:    b("n", "stay (so does any other key)", "n"),
		},
		Save: Save{
			Confirm: b("enter", "save", "enter"),
			Cancel:  b("esc", "cancel", "esc"),
			Quit:    b("ctrl+c", "quit", "ctrl+c"),
		},
		SaveTest: SaveTest{
			Next:    b("tab", "next field", "tab", "shift+tab"),
			Up:      b("↑", "previous suite file, or redaction", "up"),
			Down:    b("↓", "next suite file, or redaction", "down"),
			Toggle:  b("ctrl+t", "keep or drop the redaction selected", "ctrl+t"),
			Rerun:   b("ctrl+r", "run it again to find values that change", "ctrl+r"),
			Confirm: b("enter", "write the test and its snapshot", "enter"),
			Cancel:  b("esc", "cancel", "esc"),
			Quit:    b("ctrl+c", "quit", "ctrl+c"),
		},
		Level: Level{
			Up:     b("↑/k", "up", "up", "k"),
			Down:   b("↓/j", "down", "down", "j"),
			Choose: b("enter", "set this level", "enter"),
			Back:   b("esc", "back", "esc"),
			Quit:   b("ctrl+c", "quit", "ctrl+c"),
		},
		Servers: Level{
			Up:     b("↑/k", "up", "up", "k"),
			Down:   b("↓/j", "down", "down", "j"),
			Choose: b("enter", "connect to this server", "enter"),
			Back:   b("esc", "back", "esc"),
			Quit:   b("ctrl+c", "quit", "ctrl+c"),
		},
		Login: Login{
			Copy: b("y", "copy the URL (field empty)", "y"),
			Send: b("enter", "send the address pasted", "enter"),
			Hide: b("esc", "hide it (the login waits)", "esc"),
			Quit: b("ctrl+c", "quit", "ctrl+c"),
		},
		Apps: Apps{
			Up:       b("↑/k", "up", "up", "k"),
			Down:     b("↓/j", "down", "down", "j"),
			Copy:     b("y", "copy the app's URL (to open it again)", "y"),
			Resend:   b("r", "send the app its result again", "r"),
			Close:    b("c", "close the app (ends its session)", "c"),
			Tools:    b("t", "the app's own tools (call one)", "t"),
			Theme:    b("d", "tell the app the theme is dark, or light", "d"),
			PageUp:   b("pgup", "scroll the app's detail up", "pgup"),
			PageDown: b("pgdown", "scroll it down", "pgdown"),
			Back:     b("esc/A", "back to the tabs", "esc", "A"),
			Quit:     b("q/ctrl+c", "quit", "q", "ctrl+c"),
		},
		AppTools: AppTools{
			Up:       b("↑", "up", "up"),
			Down:     b("↓", "down", "down"),
			Call:     b("enter", "call it with the arguments typed", "enter"),
			Relist:   b("ctrl+l", "ask the app for its tools again", "ctrl+l"),
			PageUp:   b("pgup", "scroll the result up", "pgup"),
			PageDown: b("pgdown", "scroll it down", "pgdown"),
			Back:     b("esc", "back to the Apps panel", "esc"),
			Quit:     b("ctrl+c", "quit", "ctrl+c"),
		},
		Controls: nativeform.ControlKeys,
		Tasks: Tasks{
			Up:     b("↑/k", "up", "up", "k"),
			Down:   b("↓/j", "down", "down", "j"),
			Cancel: b("c", "cancel the running task", "c"),
			List:   b("l", "the server's tasks (tasks/list)", "l"),
			Close:  b("esc/T", "close", "esc", "T"),
			Quit:   b("ctrl+c", "quit", "ctrl+c"),
		},
		Lock: Lock{
			Up:       b("↑/k", "up", "up", "k"),
			Down:     b("↓/j", "down", "down", "j"),
			PageUp:   b("pgup", "page up", "pgup"),
			PageDown: b("pgdown", "page down", "pgdown"),
			Top:      b("home/g", "top", "home", "g"),
			Bottom:   b("end/G", "end", "end", "G"),
			Close:    b("esc/D", "close", "esc", "D"),
			Quit:     b("q/ctrl+c", "quit", "q", "ctrl+c"),
		},
		Roots: Roots{
			Up:      b("↑/k", "up", "up", "k"),
			Down:    b("↓/j", "down", "down", "j"),
			Add:     b("a", "add", "a"),
			Remove:  b("d", "remove", "d", "delete"),
			Close:   b("esc", "close", "esc", "R"),
			Confirm: b("enter", "add", "enter"),
			Back:    b("esc", "back", "esc"),
			Quit:    b("ctrl+c", "quit", "ctrl+c"),
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
	_ help.KeyMap = App{}
	_ help.KeyMap = Form{}
	_ help.KeyMap = URL{}
	_ help.KeyMap = JSON{}
	_ help.KeyMap = PromptArgs{}
	_ help.KeyMap = Quit{}
	_ help.KeyMap = Save{}
	_ help.KeyMap = SaveTest{}
	_ help.KeyMap = Level{}
	_ help.KeyMap = Roots{}
	_ help.KeyMap = Login{}
	_ help.KeyMap = Apps{}
	_ help.KeyMap = AppTools{}
	_ help.KeyMap = Tasks{}
	_ help.KeyMap = Lock{}
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

// ShortHelp is the app card's part of the footer.
func (k App) ShortHelp() []key.Binding { return []key.Binding{k.Abandon} }

// FullHelp lists the app card's keys.
func (k App) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Abandon}} }

// ShortHelp is the inspector's footer under a form, which shows its own
// keys: only the queue's.
func (k Form) ShortHelp() []key.Binding {
	return []key.Binding{Hint(k.Next.Help().Key, "shows the next", k.Next)}
}

// FullHelp lists every key of a form.
func (k Form) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Submit, k.Decline, k.Cancel, k.wholeMessage, k.Reject, k.newLine,
		Hint("pgup/pgdn", "scroll a sampling request", k.scrollUp, k.scrollDown),
		Hint("tab/↑↓", "accept/choose a completion", k.Accept, k.nextSuggestion, k.prevSuggestion), k.Next, k.Interrupt}}
}

// ShortHelp is the footer of the URL consent card.
func (k URL) ShortHelp() []key.Binding {
	return []key.Binding{Hint("o", "open", k.Open), k.Decline, Hint("esc", "cancel this request", k.Cancel), Hint("q", "quit", k.Quit)}
}

// FullHelp lists every key of the URL consent card.
func (k URL) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Open, k.Decline, k.Cancel, k.next, k.Quit, k.Copy, k.Close}}
}

// ShortHelp is the footer of the JSON editor.
func (k JSON) ShortHelp() []key.Binding {
	return []key.Binding{Hint("ctrl+s", "call", k.Call), k.Back}
}

// FullHelp lists every key of the JSON editor.
func (k JSON) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Call, k.Back, k.Quit}} }

// ShortHelp is the footer of a prompt's arguments on several lines.
func (k PromptArgs) ShortHelp() []key.Binding {
	return []key.Binding{Hint("tab", "next argument", k.Next, k.Prev), Hint("ctrl+s", "get", k.Get), k.Back}
}

// FullHelp lists every key of a prompt's arguments on several lines.
func (k PromptArgs) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev, k.Get, k.Back, k.Quit}}
}

// ShortHelp is the answer the quit prompt asks for.
func (k Quit) ShortHelp() []key.Binding { return []key.Binding{k.Confirm, k.Stay} }

// FullHelp lists the quit prompt's keys.
func (k Quit) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Confirm, k.Stay}} }

// ShortHelp is the footer of the save prompt.
func (k Save) ShortHelp() []key.Binding { return []key.Binding{k.Confirm, k.Cancel, k.Quit} }

// FullHelp lists the save prompt's keys.
func (k Save) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Confirm, k.Cancel, k.Quit}} }

// ShortHelp is every key of saving a test, which its footer documents.
func (k SaveTest) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Up, k.Down, k.Toggle, k.Rerun, k.Confirm, k.Cancel, k.Quit}
}

// FullHelp lists the keys of saving a test.
func (k SaveTest) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// ShortHelp is every key of the roots layer, which is documented by its
// footer: the list's keys, or while a root is typed the input's.
func (k Roots) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Add, k.Remove, k.Close, k.Confirm, k.Back, k.Quit}
}

// FullHelp lists the roots layer's keys.
func (k Roots) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// ShortHelp is the login card's keys; its footer words them for the
// moment.
func (k Login) ShortHelp() []key.Binding { return []key.Binding{k.Copy, k.Send, k.Hide, k.Quit} }

// FullHelp lists the login card's keys.
func (k Login) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// ShortHelp is the Tasks layer's keys.
func (k Tasks) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Cancel, k.List, k.Close, k.Quit}
}

// FullHelp lists the Tasks layer's keys.
func (k Tasks) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// ShortHelp is the footer of the changes since the surface lock.
func (k Lock) ShortHelp() []key.Binding {
	return []key.Binding{Hint("↑↓/pgup/pgdn/g/G", "scroll", k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom), k.Close, k.Quit}
}

// FullHelp lists the keys of the changes since the surface lock.
func (k Lock) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Close, k.Quit}}
}

// ShortHelp is the Apps panel's footer.
func (k Apps) ShortHelp() []key.Binding {
	return []key.Binding{Hint("↑↓", "select", k.Up, k.Down), Hint("y", "copy URL", k.Copy), Hint("r", "resend", k.Resend),
		Hint("c", "close app", k.Close), Hint("t", "app's tools", k.Tools), Hint("d", "theme", k.Theme),
		Hint("pgup/dn", "scroll", k.PageUp, k.PageDown), Hint("esc", "back", k.Back)}
}

// FullHelp lists the Apps panel's keys.
func (k Apps) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Copy, k.Resend, k.Close, k.Tools, k.Theme, k.PageUp, k.PageDown, k.Back, k.Quit}}
}

// ShortHelp is the footer of an app's own tools.
func (k AppTools) ShortHelp() []key.Binding {
	return []key.Binding{Hint("↑↓", "select", k.Up, k.Down), Hint("enter", "call", k.Call), Hint("ctrl+l", "list again", k.Relist),
		Hint("pgup/dn", "scroll", k.PageUp, k.PageDown), Hint("esc", "back", k.Back), k.Quit}
}

// FullHelp lists the keys of an app's own tools.
func (k AppTools) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Call, k.Relist, k.PageUp, k.PageDown, k.Back, k.Quit}}
}

// ShortHelp is the footer of the log level picker: every key it takes.
func (k Level) ShortHelp() []key.Binding {
	return []key.Binding{Hint("↑↓", "choose", k.Up, k.Down), k.Choose, k.Back, k.Quit}
}

// FullHelp lists the log level picker's keys.
func (k Level) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Choose, k.Back, k.Quit}}
}

// Section is a titled group of keys on the help screen.
type Section struct {
	Title string
	Keys  help.KeyMap
}

func (sec Section) Bindings() []key.Binding {
	var out []key.Binding
	for _, group := range sec.Keys.FullHelp() {
		out = append(out, group...)
	}
	return out
}

// HelpSections are the groups of keys on the help screen. The filter's,
// the quit prompt's and the log level picker's keys are not among them:
// their footers list them, and they are there whenever those keys work.
func (k Map) HelpSections() []Section {
	return []Section{
		{"Tabs", k.Tabs},
		{"App card (answering in the browser)", k.App},
		{"Forms", k.Form},
		{"Form controls (date, slider, choice, multi-select)", k.Controls},
		{"URL consent card", k.URL},
		{"Login card (OAuth)", k.Login},
		{"Apps panel (tool apps)", k.Apps},
		{"An app's own tools (t on the Apps panel)", k.AppTools},
		{"Tasks", k.Tasks},
		{"Changes since the surface lock (D)", k.Lock},
		{"Arguments as JSON", k.JSON},
		{"A prompt's arguments on several lines (e)", k.PromptArgs},
	}
}
