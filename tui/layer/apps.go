// The Apps panel (A): the tool apps this run opened, newest first, the
// one selected in full.

package layer

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// App is one tool app session, as the Apps panel lists it. The program
// names it by its place among the sessions opened, oldest first.
type App struct {
	Tool  string // the tool whose app it is
	State string // its state in a few words, drawn
	Ended bool
	URL   string // its tab's address, "" when it did not open
}

// AppDo asks the program to act on the App-th session (by the place
// [Apps] gives it): What is one of the [AppDo] constants.
type AppDo struct {
	App  int
	What AppDoes
}

// AppDoes is what [AppDo] asks.
type AppDoes int

// What the Apps panel asks of an app.
const (
	ResendOutcome AppDoes = iota // send the app its call's outcome again
	CloseApp                     // tear the app down and end its session
	OpenAppTools                 // open the layer of the app's own tools
	ToggleTheme                  // tell the app the host's theme is the other one
)

// Apps lists the tool apps this run opened, newest first: each with its
// tool and state, and the one selected in full (the program's text: its
// arguments, what became of the call, its tab's URL whole, the messages
// the app sent). y copies the URL; r, c, t and d ask [AppDo].
type Apps struct {
	c      *widget.Common
	host   string // "app host <address>", "" when it is off
	apps   func() []App
	detail func(app int) string
	sel    int         // the session selected, by its place; -1: the newest
	pane   widget.Pane // the selected session, scrolled with pgup/pgdn
	h      int         // the height of its room
}

// NewApps is the panel on the newest session: apps are the sessions,
// oldest first, and detail one in full, drawn and redacted, both asked
// after every message while the panel is on top (they change while it
// shows); host is "app host <address>", "" when the host is off.
func NewApps(c *widget.Common, host string, apps func() []App, detail func(app int) string) *Apps {
	return &Apps{c: c, host: host, apps: apps, detail: detail, sel: -1}
}

// shown are the sessions' places newest first, and the index of the one
// selected among them.
func (l *Apps) shown(n int) ([]int, int) {
	list := make([]int, n)
	for i := range list {
		list[i] = n - 1 - i
	}
	i := 0
	for j, a := range list {
		if a == l.sel {
			i = j
		}
	}
	if n > 0 {
		l.sel = list[i]
	}
	return list, i
}

// Update takes the keys and the room; [Refresh] gives the detail pane the
// selected session's text.
func (l *Apps) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		l.h = msg.Height
	case tea.KeyMsg:
		return l.key(msg)
	}
	return nil
}

func (l *Apps) key(msg tea.KeyMsg) Action {
	k := AppsKeys
	apps := l.apps()
	list, i := l.shown(len(apps))
	switch {
	case key.Matches(msg, k.Quit):
		return AskQuit{}
	case key.Matches(msg, k.Back):
		return Close{}
	case key.Matches(msg, k.Up) && i > 0:
		l.sel = list[i-1]
	case key.Matches(msg, k.Down) && i < len(list)-1:
		l.sel = list[i+1]
	case key.Matches(msg, k.PageUp): // the pane is synced after every message
		l.pane.Viewport.PageUp()
	case key.Matches(msg, k.PageDown):
		l.pane.Viewport.PageDown()
	case len(apps) == 0:
	case key.Matches(msg, k.Copy):
		if apps[l.sel].URL == "" {
			return Status{"this app has no URL: it did not open", true}
		}
		return Copy{apps[l.sel].URL, "the app's URL"}
	case key.Matches(msg, k.Resend):
		return AppDo{l.sel, ResendOutcome}
	case key.Matches(msg, k.Close):
		return AppDo{l.sel, CloseApp}
	case key.Matches(msg, k.Tools):
		return AppDo{l.sel, OpenAppTools}
	case key.Matches(msg, k.Theme):
		return AppDo{l.sel, ToggleTheme}
	}
	return nil
}

// Refresh gives the detail pane the selected session's text and the room
// left under the list.
func (l *Apps) Refresh() {
	n := len(l.apps())
	if n == 0 {
		return
	}
	l.shown(n)
	l.pane.Set(l.detail(l.sel), l.c.Width, l.h-appsHead(n, l.h)-1)
}

// appsHead is how many lines in a body of h lines are above the selected
// session's detail, with n sessions listed: the title, the host, the list
// and a blank line.
func appsHead(n, h int) int { return 3 + appsListRows(n, h) }

// appsListRows is how many sessions the list shows in a body of h lines.
func appsListRows(n, h int) int { return min(n, max(h/4, 1)) }

// View lists the sessions over the selected one's detail.
func (l *Apps) View(width, height int) string {
	s := l.c.Styles
	apps := l.apps()
	list, i := l.shown(len(apps))
	var b strings.Builder
	title := "Tool apps"
	if len(list) > 0 {
		open := 0
		for _, a := range apps {
			if !a.Ended {
				open++
			}
		}
		title += fmt.Sprintf(" · %d opened, %d open", len(list), open)
	}
	b.WriteString(s.Title.Render(widget.Line(title, width)) + "\n")
	switch {
	case l.host == "":
		b.WriteString(s.Dim.Render(widget.Line("The app host is off: with --app-host, calling a tool marked app opens its app in the browser.", width)) + "\n")
	default:
		b.WriteString(s.Dim.Render(widget.Line(l.host+" · calling a tool marked app opens its app in the browser", width)) + "\n")
	}
	if len(list) == 0 {
		b.WriteString("\n" + s.Dim.Render(widget.Line("No app has opened in this run.", width)))
		return b.String()
	}
	rows := make([]widget.Row, len(list))
	for j, a := range list {
		name := widget.Line(apps[a].Tool, 24)
		rows[j] = widget.Row{Name: widget.Fit(name+strings.Repeat(" ", 25-ansi.StringWidth(name))+ansi.Strip(apps[a].State), width-2), Drawn: true}
	}
	var sessions widget.List // the selection is the session (sel), wherever the list puts it
	sessions.Place(i, len(list))
	b.WriteString(sessions.Rows(l.c, rows, width, appsListRows(len(list), height)) + "\n")
	return b.String() + "\n" + l.pane.View(l.c, "") // synced by Refresh
}

// Help is the panel's keys.
func (l *Apps) Help() []key.Binding { return AppsKeys.ShortHelp() }

// StatusFooter: what the keys did shows in the footer until the next key.
func (*Apps) StatusFooter() {}

// AppsKeyMap holds the keys that work on the Apps panel, the tool apps
// the calls opened.
type AppsKeyMap struct {
	Up, Down, Copy, Resend, Close key.Binding
	Tools, Theme                  key.Binding // the app's own tools; the theme it is told of
	PageUp, PageDown, Back, Quit  key.Binding
}

// AppsKeys are the bindings of [AppsKeyMap].
var AppsKeys = AppsKeyMap{
	Up:       upKey,
	Down:     downKey,
	Copy:     keys.New("y", "copy the app's URL (to open it again)", "y"),
	Resend:   keys.New("r", "send the app its result again", "r"),
	Close:    keys.New("c", "close the app (ends its session)", "c"),
	Tools:    keys.New("t", "the app's own tools (call one)", "t"),
	Theme:    keys.New("d", "tell the app the theme is dark, or light", "d"),
	PageUp:   keys.New("pgup", "scroll the app's detail up", "pgup"),
	PageDown: keys.New("pgdown", "scroll it down", "pgdown"),
	Back:     keys.New("esc/A", "back to the tabs", "esc", "A"),
	Quit:     keys.New("q/ctrl+c", "quit", "q", "ctrl+c"),
}

// ShortHelp is the Apps panel's footer.
func (k AppsKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{keys.Hint("↑↓", "select", k.Up, k.Down), keys.Hint("y", "copy URL", k.Copy), keys.Hint("r", "resend", k.Resend),
		keys.Hint("c", "close app", k.Close), keys.Hint("t", "app's tools", k.Tools), keys.Hint("d", "theme", k.Theme),
		keys.Hint("pgup/dn", "scroll", k.PageUp, k.PageDown), keys.Hint("esc", "back", k.Back)}
}

// FullHelp lists the Apps panel's keys.
func (k AppsKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Copy, k.Resend, k.Close, k.Tools, k.Theme, k.PageUp, k.PageDown, k.Back, k.Quit}}
}
