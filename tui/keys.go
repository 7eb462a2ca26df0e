package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/nativeform"
)

// keyMap is every key of the inspector, grouped by the layer that takes
// them. The layers route keys with these bindings, and the footers and
// the help screen are generated from them, so that no key is documented
// that does not work, and none works undocumented. Each group implements
// bubbles' [help.KeyMap]: ShortHelp is the footer, where several bindings
// may share one entry; FullHelp is the help screen, every key spelled out.
type keyMap struct {
	tabs   tabKeys
	filter filterKeys
	app    appKeys
	form   formKeys
	url    urlKeys
	json   jsonKeys
	// promptArgs are the keys of a prompt's arguments on several lines.
	promptArgs promptArgsKeys
	quit       quitKeys
	save       saveKeys
	level      levelKeys
	servers    levelKeys // the server picker's: the same keys as the level picker's
	roots      rootsKeys
	login      loginKeys
	apps       appsKeys
	// appTools are the keys of an app's own tools (the Apps panel's t).
	appTools appToolKeys
	tasks    tasksKeys
	// controls are the native form's own controls (date, slider,
	// choice), which the form handles; here for the help screen.
	controls nativeform.ControlKeyMap
}

// tasksKeys work on the Tasks layer.
type tasksKeys struct {
	up, down, cancel, list, close, quit key.Binding
}

// tabKeys work on the tabs, when nothing is over them.
type tabKeys struct {
	jump                 [tabCount]key.Binding // 1-6: that tab
	next, prev, up, down key.Binding
	filter, open         key.Binding
	collapse             key.Binding // close the entry enter expanded
	focus, back          key.Binding // into the detail pane, and back to the list
	pageUp, pageDown     key.Binding // scroll the detail pane
	top, bottom          key.Binding
	copy, save           key.Binding // the pane's text, to the clipboard or a file
	cancelCall           key.Binding
	earlier, later       key.Binding // step through a tool's results
	logView, logLevel    key.Binding // the Log tab's wire or server log; the server's log level
	subscribe            key.Binding // a resource's updates
	reconnect, help      key.Binding
	roots                key.Binding // the roots offered to the server
	authorize            key.Binding // the login waiting, or a new one
	apps                 key.Binding // the Apps panel: the tool apps opened
	tasks                key.Binding // the Tasks layer: the tasks followed
	servers              key.Binding // the server picker: the servers the configs name
	asTask               key.Binding // call the selected tool as a task
	retry                key.Binding // call again a call refused until a page was opened
	editArgs             key.Binding // a prompt's arguments on several lines
	quit                 key.Binding
}

// filterKeys work while a list's filter is being typed; other keys are
// text.
type filterKeys struct {
	done, leave, erase, clear, quit key.Binding
}

// appKeys work while an elicitation is answered in its app (the app card).
type appKeys struct {
	abandon key.Binding
}

// formKeys work in forms. The form itself (nativeform) handles submit,
// decline, cancel and whole message, and in a sampling request's form
// reject, new line and scrolling the request; the inspector handles next,
// and interrupt, which asks before quitting as q does on the tabs.
type formKeys struct {
	submit, decline, cancel, wholeMessage  key.Binding
	reject, newLine, scrollUp, scrollDown  key.Binding // a sampling request's form
	accept, nextSuggestion, prevSuggestion key.Binding // a completion under an arguments form's field
	next                                   key.Binding // the next pending request
	interrupt                              key.Binding
}

// rootsKeys work on the roots layer; while a root is typed, other keys
// are text.
type rootsKeys struct {
	up, down, add, remove, close key.Binding
	confirm, back, quit          key.Binding // confirm and back while a root is typed
}

// loginKeys work on the login card; other keys are text, the address
// pasted.
type loginKeys struct {
	copy, send, hide, quit key.Binding // copy: while the field is empty
}

// appsKeys work on the Apps panel, the tool apps the calls opened.
type appsKeys struct {
	up, down, copy, resend, close key.Binding
	tools, theme                  key.Binding // the app's own tools; the theme it is told of
	pageUp, pageDown, back, quit  key.Binding
}

// appToolKeys work on the layer of an app's own tools; other keys are the
// arguments typed.
type appToolKeys struct {
	up, down, call, relist       key.Binding
	pageUp, pageDown, back, quit key.Binding
}

// levelKeys choose the level the server logs at.
type levelKeys struct {
	up, down, choose, back, quit key.Binding
}

// urlKeys work on the URL consent card.
type urlKeys struct {
	open, decline, cancel, next, quit key.Binding
	copy, close                       key.Binding // a page the browser did not open, shown to copy
}

// promptArgsKeys work in the multi-line editor of a prompt's arguments;
// other keys are text, enter a new line.
type promptArgsKeys struct {
	next, prev, get, back, quit key.Binding
}

// jsonKeys work in the JSON editor of a tool's arguments.
type jsonKeys struct {
	call, back, quit key.Binding
}

// quitKeys answer the quit prompt: confirm quits, any other key stays.
type quitKeys struct {
	confirm, stay key.Binding
}

// saveKeys answer the prompt for a file name to save the pane in; other
// keys are text.
type saveKeys struct {
	confirm, cancel, quit key.Binding
}

// reword is a binding with the same keys and help text of the inspector's.
func reword(k key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(k.Keys()...), key.WithHelp(k.Help().Key, desc))
}

func newKeyMap() keyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	next := b("ctrl+n", "next pending request", "ctrl+n")
	k := keyMap{
		tabs: tabKeys{
			next:       b("tab", "next tab", "tab"),
			prev:       b("shift+tab", "previous tab", "shift+tab"),
			up:         b("↑/k", "up", "up", "k"),
			down:       b("↓/j", "down", "down", "j"),
			focus:      b("→/l", "into the pane", "right", "l"),
			back:       b("←/h", "back to the list", "left", "h"),
			pageUp:     b("pgup", "page up", "pgup"),
			pageDown:   b("pgdown", "page down", "pgdown"),
			top:        b("home/g", "top", "home", "g"),
			bottom:     b("end/G", "end", "end", "G"),
			filter:     b("/", "filter the list", "/"),
			open:       b("enter", "call, read, get or expand", "enter"),
			collapse:   b("x", "close the expanded entry", "x"),
			copy:       b("y", "copy the pane (OSC 52: the terminal must support it)", "y"),
			save:       b("w", "save the pane to a file", "w"),
			cancelCall: b("esc", "cancel the running call", "esc"),
			earlier:    b("[", "the tool's earlier result", "["),
			later:      b("]", "the tool's later result", "]"),
			logView:    b("v", "Log tab: the wire or the server's log", "v"),
			logLevel:   b("L", "the server's log level", "L"),
			subscribe:  b("s", "(un)subscribe to a resource", "s"),
			reconnect:  b("r", "reconnect", "r"),
			roots:      b("R", "roots offered to the server", "R"),
			authorize:  b("a", "sign in again (OAuth)", "a"),
			apps:       b("A", "the Apps panel (tool apps)", "A"),
			tasks:      b("T", "the tasks followed", "T"),
			servers:    b("S", "another server from your MCP configs", "S"),
			asTask:     b("t", "call the tool as a task (if it may run as one)", "t"),
			retry:      b("c", "call it again once done on the page it needs", "c"),
			editArgs:   b("e", "a prompt's arguments on several lines", "e"),
			help:       b("?", "these keys", "?"),
			quit:       b("q/ctrl+c", "quit (asks if pending)", "q", "ctrl+c"),
		},
		filter: filterKeys{
			done:  b("enter", "apply", "enter"),
			leave: b("esc", "leave (no filter)", "esc"),
			erase: b("backspace", "erase", "backspace"),
			clear: b("ctrl+u", "clear", "ctrl+u"),
			quit:  b("ctrl+c", "quit", "ctrl+c"),
		},
		app: appKeys{abandon: b("n", "answer natively instead", "n")},
		form: formKeys{
			// The form handles its own keys; these are its bindings, worded
			// for the help screen.
			submit:         reword(nativeform.Keys.Submit, "submit"),
			decline:        reword(nativeform.Keys.Decline, "decline"),
			cancel:         reword(nativeform.Keys.Cancel, "cancel"),
			wholeMessage:   reword(nativeform.Keys.WholeMessage, "show the whole message"),
			reject:         reword(nativeform.SampleKeys.Reject, "reject a sampling request"),
			newLine:        reword(nativeform.SampleKeys.NewLine, "new line in a reply"),
			scrollUp:       reword(nativeform.SampleKeys.ScrollUp, "scroll a sampling request up"),
			scrollDown:     reword(nativeform.SampleKeys.ScrollDown, "scroll it down"),
			accept:         reword(nativeform.SuggestKeys.Accept, "accept a completion"),
			nextSuggestion: reword(nativeform.SuggestKeys.Next, "next completion"),
			prevSuggestion: reword(nativeform.SuggestKeys.Prev, "previous completion"),
			next:           next,
			interrupt:      reword(nativeform.Keys.Interrupt, "quit (asks if pending)"),
		},
		url: urlKeys{
			open:    b("o", "open the page (consent)", "o"),
			decline: b("d", "decline", "d"),
			cancel:  b("esc/c", "cancel", "esc", "c"),
			next:    next,
			quit:    b("q/ctrl+c", "quit", "q", "ctrl+c"),
			copy:    b("y", "copy a URL the browser did not open", "y"),
			close:   b("esc/enter", "close it", "esc", "enter"),
		},
		json: jsonKeys{
			call: b("ctrl+s", "call the tool", "ctrl+s"),
			back: b("esc", "back", "esc"),
			quit: b("ctrl+c", "quit", "ctrl+c"),
		},
		promptArgs: promptArgsKeys{
			next: b("tab", "next argument", "tab"),
			prev: b("shift+tab", "previous argument", "shift+tab"),
			get:  b("ctrl+s", "get the prompt", "ctrl+s"),
			back: b("esc", "back", "esc"),
			quit: b("ctrl+c", "quit", "ctrl+c"),
		},
		quit: quitKeys{
			confirm: b("y", "quit and cancel them", "y", "q", "ctrl+c"),
			stay:    b("n", "stay (so does any other key)", "n"),
		},
		save: saveKeys{
			confirm: b("enter", "save", "enter"),
			cancel:  b("esc", "cancel", "esc"),
			quit:    b("ctrl+c", "quit", "ctrl+c"),
		},
		level: levelKeys{
			up:     b("↑/k", "up", "up", "k"),
			down:   b("↓/j", "down", "down", "j"),
			choose: b("enter", "set this level", "enter"),
			back:   b("esc", "back", "esc"),
			quit:   b("ctrl+c", "quit", "ctrl+c"),
		},
		servers: levelKeys{
			up:     b("↑/k", "up", "up", "k"),
			down:   b("↓/j", "down", "down", "j"),
			choose: b("enter", "connect to this server", "enter"),
			back:   b("esc", "back", "esc"),
			quit:   b("ctrl+c", "quit", "ctrl+c"),
		},
		login: loginKeys{
			copy: b("y", "copy the URL (field empty)", "y"),
			send: b("enter", "send the address pasted", "enter"),
			hide: b("esc", "hide it (the login waits)", "esc"),
			quit: b("ctrl+c", "quit", "ctrl+c"),
		},
		apps: appsKeys{
			up:       b("↑/k", "up", "up", "k"),
			down:     b("↓/j", "down", "down", "j"),
			copy:     b("y", "copy the app's URL (to open it again)", "y"),
			resend:   b("r", "send the app its result again", "r"),
			close:    b("c", "close the app (ends its session)", "c"),
			tools:    b("t", "the app's own tools (call one)", "t"),
			theme:    b("d", "tell the app the theme is dark, or light", "d"),
			pageUp:   b("pgup", "scroll the app's detail up", "pgup"),
			pageDown: b("pgdown", "scroll it down", "pgdown"),
			back:     b("esc/A", "back to the tabs", "esc", "A"),
			quit:     b("q/ctrl+c", "quit", "q", "ctrl+c"),
		},
		appTools: appToolKeys{
			up:       b("↑", "up", "up"),
			down:     b("↓", "down", "down"),
			call:     b("enter", "call it with the arguments typed", "enter"),
			relist:   b("ctrl+l", "ask the app for its tools again", "ctrl+l"),
			pageUp:   b("pgup", "scroll the result up", "pgup"),
			pageDown: b("pgdown", "scroll it down", "pgdown"),
			back:     b("esc", "back to the Apps panel", "esc"),
			quit:     b("ctrl+c", "quit", "ctrl+c"),
		},
		controls: nativeform.ControlKeys,
		tasks: tasksKeys{
			up:     b("↑/k", "up", "up", "k"),
			down:   b("↓/j", "down", "down", "j"),
			cancel: b("c", "cancel the running task", "c"),
			list:   b("l", "the server's tasks (tasks/list)", "l"),
			close:  b("esc/T", "close", "esc", "T"),
			quit:   b("ctrl+c", "quit", "ctrl+c"),
		},
		roots: rootsKeys{
			up:      b("↑/k", "up", "up", "k"),
			down:    b("↓/j", "down", "down", "j"),
			add:     b("a", "add", "a"),
			remove:  b("d", "remove", "d", "delete"),
			close:   b("esc", "close", "esc", "R"),
			confirm: b("enter", "add", "enter"),
			back:    b("esc", "back", "esc"),
			quit:    b("ctrl+c", "quit", "ctrl+c"),
		},
	}
	for i := range k.tabs.jump {
		n := string(rune('1' + i))
		k.tabs.jump[i] = b(n, tabNames[i], n)
	}
	return k
}

// hint is a footer entry for bindings: their keys under one label.
func hint(label, desc string, bs ...key.Binding) key.Binding {
	var keys []string
	for _, b := range bs {
		keys = append(keys, b.Keys()...)
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, desc))
}

var (
	_ help.KeyMap = tabKeys{}
	_ help.KeyMap = filterKeys{}
	_ help.KeyMap = appKeys{}
	_ help.KeyMap = formKeys{}
	_ help.KeyMap = urlKeys{}
	_ help.KeyMap = jsonKeys{}
	_ help.KeyMap = promptArgsKeys{}
	_ help.KeyMap = quitKeys{}
	_ help.KeyMap = saveKeys{}
	_ help.KeyMap = levelKeys{}
	_ help.KeyMap = rootsKeys{}
	_ help.KeyMap = loginKeys{}
	_ help.KeyMap = appsKeys{}
	_ help.KeyMap = appToolKeys{}
	_ help.KeyMap = tasksKeys{}
)

// tabFor is the tab a key jumps to.
func (k tabKeys) tabFor(msg tea.KeyMsg) (tab, bool) {
	for i, b := range k.jump {
		if key.Matches(msg, b) {
			return tab(i), true
		}
	}
	return 0, false
}

// ShortHelp is the footer of the tabs.
func (k tabKeys) ShortHelp() []key.Binding {
	return []key.Binding{
		hint("1-6/tab", "switch", append(k.jump[:], k.next)...),
		hint("↑↓", "move", k.up, k.down),
		hint("→", "pane", k.focus),
		hint("/", "filter", k.filter),
		hint("enter", "open", k.open),
		hint("?", "keys", k.help),
		hint("q", "quit", k.quit),
	}
}

// FullHelp lists every key of the tabs.
func (k tabKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{
		hint("1-6", "go to a tab", k.jump[:]...),
		hint("tab", "next (shift+tab: previous)", k.next, k.prev),
		hint("↑↓/jk", "move, or scroll the pane", k.up, k.down),
		hint("→←/lh", "into the pane, and out", k.focus, k.back),
		hint("pgup/pgdn", "page the pane", k.pageUp, k.pageDown),
		hint("g/G", "top/end (home/end too)", k.top, k.bottom),
		hint("y/w", "copy (needs OSC 52), save", k.copy, k.save),
		k.filter, k.open, k.asTask, k.retry, k.editArgs, k.collapse, hint("[/]", "a tool's earlier/later result", k.earlier, k.later), k.cancelCall,
		hint("v/L", "server log (Log tab); its level", k.logView, k.logLevel), k.subscribe, k.reconnect, k.roots, k.authorize, k.apps, k.tasks, k.servers, k.help, k.quit,
	}}
}

// paneHelp is the footer while a pane takes ↑/↓; back, when ← leaves
// it for a list.
func (k tabKeys) paneHelp(back bool) []key.Binding {
	bs := []key.Binding{
		hint("1-6/tab", "switch", append(k.jump[:], k.next)...),
		hint("↑↓", "scroll", k.up, k.down),
		hint("g/G", "top/end", k.top, k.bottom),
		hint("y", "copy", k.copy),
	}
	if back {
		bs = append(bs, hint("←", "back", k.back))
	}
	return append(bs, hint("?", "keys", k.help), hint("q", "quit", k.quit))
}

// ShortHelp is the footer while a filter is typed.
func (k filterKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.done, k.leave, k.erase, k.clear, k.quit}
}

// FullHelp lists the filter's keys.
func (k filterKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.done, k.leave, k.erase, k.clear, k.quit}}
}

// ShortHelp is the app card's part of the footer.
func (k appKeys) ShortHelp() []key.Binding { return []key.Binding{k.abandon} }

// FullHelp lists the app card's keys.
func (k appKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.abandon}} }

// ShortHelp is the inspector's footer under a form, which shows its own
// keys: only the queue's.
func (k formKeys) ShortHelp() []key.Binding {
	return []key.Binding{hint(k.next.Help().Key, "shows the next", k.next)}
}

// FullHelp lists every key of a form.
func (k formKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.submit, k.decline, k.cancel, k.wholeMessage, k.reject, k.newLine,
		hint("pgup/pgdn", "scroll a sampling request", k.scrollUp, k.scrollDown),
		hint("tab/↑↓", "accept/choose a completion", k.accept, k.nextSuggestion, k.prevSuggestion), k.next, k.interrupt}}
}

// ShortHelp is the footer of the URL consent card.
func (k urlKeys) ShortHelp() []key.Binding {
	return []key.Binding{hint("o", "open", k.open), k.decline, hint("esc", "cancel this request", k.cancel), hint("q", "quit", k.quit)}
}

// FullHelp lists every key of the URL consent card.
func (k urlKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.open, k.decline, k.cancel, k.next, k.quit, k.copy, k.close}}
}

// ShortHelp is the footer of the JSON editor.
func (k jsonKeys) ShortHelp() []key.Binding {
	return []key.Binding{hint("ctrl+s", "call", k.call), k.back}
}

// FullHelp lists every key of the JSON editor.
func (k jsonKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.call, k.back, k.quit}} }

// ShortHelp is the footer of a prompt's arguments on several lines.
func (k promptArgsKeys) ShortHelp() []key.Binding {
	return []key.Binding{hint("tab", "next argument", k.next, k.prev), hint("ctrl+s", "get", k.get), k.back}
}

// FullHelp lists every key of a prompt's arguments on several lines.
func (k promptArgsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.next, k.prev, k.get, k.back, k.quit}}
}

// ShortHelp is the answer the quit prompt asks for.
func (k quitKeys) ShortHelp() []key.Binding { return []key.Binding{k.confirm, k.stay} }

// FullHelp lists the quit prompt's keys.
func (k quitKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.confirm, k.stay}} }

// ShortHelp is the footer of the save prompt.
func (k saveKeys) ShortHelp() []key.Binding { return []key.Binding{k.confirm, k.cancel, k.quit} }

// FullHelp lists the save prompt's keys.
func (k saveKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.confirm, k.cancel, k.quit}} }

// ShortHelp is every key of the roots layer, which is documented by its
// footer: the list's keys, or while a root is typed the input's.
func (k rootsKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.up, k.down, k.add, k.remove, k.close, k.confirm, k.back, k.quit}
}

// FullHelp lists the roots layer's keys.
func (k rootsKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// ShortHelp is the login card's keys; its footer words them for the
// moment.
func (k loginKeys) ShortHelp() []key.Binding { return []key.Binding{k.copy, k.send, k.hide, k.quit} }

// FullHelp lists the login card's keys.
func (k loginKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// ShortHelp is the Tasks layer's keys.
func (k tasksKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.up, k.down, k.cancel, k.list, k.close, k.quit}
}

// FullHelp lists the Tasks layer's keys.
func (k tasksKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// ShortHelp is the Apps panel's footer.
func (k appsKeys) ShortHelp() []key.Binding {
	return []key.Binding{hint("↑↓", "select", k.up, k.down), hint("y", "copy URL", k.copy), hint("r", "resend", k.resend),
		hint("c", "close app", k.close), hint("t", "app's tools", k.tools), hint("d", "theme", k.theme),
		hint("pgup/dn", "scroll", k.pageUp, k.pageDown), hint("esc", "back", k.back)}
}

// FullHelp lists the Apps panel's keys.
func (k appsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.up, k.down, k.copy, k.resend, k.close, k.tools, k.theme, k.pageUp, k.pageDown, k.back, k.quit}}
}

// ShortHelp is the footer of an app's own tools.
func (k appToolKeys) ShortHelp() []key.Binding {
	return []key.Binding{hint("↑↓", "select", k.up, k.down), hint("enter", "call", k.call), hint("ctrl+l", "list again", k.relist),
		hint("pgup/dn", "scroll", k.pageUp, k.pageDown), hint("esc", "back", k.back), k.quit}
}

// FullHelp lists the keys of an app's own tools.
func (k appToolKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.up, k.down, k.call, k.relist, k.pageUp, k.pageDown, k.back, k.quit}}
}

// ShortHelp is the footer of the log level picker: every key it takes.
func (k levelKeys) ShortHelp() []key.Binding {
	return []key.Binding{hint("↑↓", "choose", k.up, k.down), k.choose, k.back, k.quit}
}

// FullHelp lists the log level picker's keys.
func (k levelKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.up, k.down, k.choose, k.back, k.quit}}
}

// newHelp renders footers: dim, with the inspector's separator.
func newHelp(s styles) help.Model {
	h := help.New()
	h.ShortSeparator = " · "
	h.Styles.ShortKey, h.Styles.ShortDesc, h.Styles.ShortSeparator, h.Styles.Ellipsis = s.dim, s.dim, s.dim, s.dim
	return h
}

// keyLine is a footer of bindings: "key what · key what".
func (c *common) keyLine(bs ...key.Binding) string { return c.help.ShortHelpView(bs) }

// helpSection is a titled group of keys on the help screen.
type helpSection struct {
	title string
	keys  help.KeyMap
}

func (sec helpSection) bindings() []key.Binding {
	var out []key.Binding
	for _, group := range sec.keys.FullHelp() {
		out = append(out, group...)
	}
	return out
}

// helpColumns lays the sections out in columns, each key beside what it
// does: no taller than height if they fit in width so, else as short as
// fits in width.
func (c *common) helpColumns(sections []helpSection, height, width int) string {
	total := 0
	for _, sec := range sections {
		total += 1 + len(sec.bindings())
	}
	for ; ; height++ {
		out := c.packHelp(sections, height)
		if lipgloss.Width(out) <= width || height >= total {
			return out
		}
	}
}

// packHelp lays the sections out in columns no taller than height (a
// section taller than that has a column of its own).
func (c *common) packHelp(sections []helpSection, height int) string {
	var cols [][]helpSection
	rows := 0
	for _, sec := range sections {
		n := 1 + len(sec.bindings())
		if len(cols) == 0 || rows > 0 && rows+n > height {
			cols, rows = append(cols, nil), 0
		}
		cols[len(cols)-1] = append(cols[len(cols)-1], sec)
		rows += n
	}
	out := make([]string, len(cols))
	for i, col := range cols {
		out[i] = c.helpColumn(col)
		if i < len(cols)-1 {
			out[i] = lipgloss.NewStyle().PaddingRight(3).Render(out[i])
		}
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, out...)
}

// helpColumn is one column of the help screen, its keys aligned.
func (c *common) helpColumn(sections []helpSection) string {
	width := 0
	for _, sec := range sections {
		for _, b := range sec.bindings() {
			width = max(width, lipgloss.Width(b.Help().Key))
		}
	}
	var lines []string
	for _, sec := range sections {
		lines = append(lines, c.styles.title.Render(sec.title))
		for _, b := range sec.bindings() {
			h := b.Help()
			lines = append(lines, "  "+h.Key+strings.Repeat(" ", width-lipgloss.Width(h.Key)+2)+h.Desc)
		}
	}
	return strings.Join(lines, "\n")
}
