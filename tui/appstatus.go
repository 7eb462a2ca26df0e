package tui

import (
	"context"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// AppSessions is what [FormAsker.WatchApps] needs of a connection: the
// requests pending, and a way to send one from its app to the native form.
type AppSessions interface {
	Pending() []mcpclient.Pending
	AbandonApp(key string) bool
}

// appStatusKeys are the keys of the status line.
var appStatusKeys = struct{ here, quit key.Binding }{
	here: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "answers here")),
	quit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quits")),
}

// WatchApps keeps the person informed while requests of `mcpeek call
// --interactive --app-host` are answered in the browser: whenever one is,
// and no form needs the terminal, it shows one status line ("answering e-1
// in the browser · n answers here"); n sends that request to the native
// form instead. It returns when ctx ends.
func (a *FormAsker) WatchApps(ctx context.Context, conn AppSessions) {
	a.once.Do(func() { a.turn = make(chan struct{}, 1) })
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	shown := map[string]bool{} // plain mode: each request is announced once
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if firstInApp(conn.Pending()) == nil || a.waiting.Load() > 0 {
			continue
		}
		if a.Plain {
			for _, p := range conn.Pending() {
				if p.Path == mcpclient.PathApp && !shown[p.Key] {
					shown[p.Key] = true
					fmt.Fprintf(a.Out, "mcpeek: %s: answering in the browser\n", p.Key)
				}
			}
			continue
		}
		select { // the terminal, unless a form has just taken it
		case a.turn <- struct{}{}:
		default:
			continue
		}
		a.showAppStatus(ctx, conn)
		<-a.turn
	}
}

// showAppStatus runs the status line until no request is in its app, a
// form wants the terminal, n is pressed or ctx ends.
func (a *FormAsker) showAppStatus(ctx context.Context, conn AppSessions) {
	m := &appStatus{conn: conn, styles: widget.NewStyles(), formWaiting: func() bool { return a.waiting.Load() > 0 }}
	m.refresh()
	p := tea.NewProgram(m, tea.WithInput(a.In), tea.WithOutput(a.Out), tea.WithContext(ctx))
	if _, err := p.Run(); err != nil {
		return
	}
	if m.interrupted && a.Interrupt != nil {
		a.Interrupt()
	}
}

// appStatus is the status line's model.
type appStatus struct {
	conn        AppSessions
	styles      widget.Styles
	formWaiting func() bool
	first       *mcpclient.Pending
	count       int
	interrupted bool
}

type appStatusTick struct{}

func (m *appStatus) refresh() {
	pending := m.conn.Pending()
	m.first, m.count = firstInApp(pending), 0
	for _, p := range pending {
		if p.Path == mcpclient.PathApp {
			m.count++
		}
	}
}

func (m *appStatus) Init() tea.Cmd { return m.tick() }

func (m *appStatus) tick() tea.Cmd {
	return tea.Tick(200*time.Millisecond, func(time.Time) tea.Msg { return appStatusTick{} })
}

func (m *appStatus) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case appStatusTick:
		m.refresh()
		if m.first == nil || m.formWaiting() {
			return m, tea.Quit
		}
		return m, m.tick()
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, appStatusKeys.here) && m.first != nil:
			m.conn.AbandonApp(m.first.Key)
			return m, tea.Quit
		case key.Matches(msg, appStatusKeys.quit):
			m.interrupted = true
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m *appStatus) View() string {
	if m.first == nil {
		return ""
	}
	s := m.styles
	more := ""
	if m.count > 1 {
		more = fmt.Sprintf(" (and %d more)", m.count-1)
	}
	return s.Title.Render("answering "+m.first.Key+" in the browser"+more) +
		s.Dim.Render(fmt.Sprintf(" · %s %s · %s %s",
			appStatusKeys.here.Help().Key, appStatusKeys.here.Help().Desc,
			appStatusKeys.quit.Help().Key, appStatusKeys.quit.Help().Desc)) + "\n"
}

// firstInApp is the oldest request being answered in its app, or nil.
func firstInApp(pending []mcpclient.Pending) *mcpclient.Pending {
	for i, p := range pending {
		if p.Path == mcpclient.PathApp {
			return &pending[i]
		}
	}
	return nil
}
