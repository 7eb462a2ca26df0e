package tui

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// A tool call's progress. Every call carries a progress token; the
// server's notifications/progress for it reach the program through the
// event queue (notify.go), at most 30 batches a second, and the Tools pane
// shows the latest above the running call's pane: a bar with the
// message and progress/total, or a spinner and the count when the server
// names no total.

// callTrack ties the running call to its progress notifications. The
// call's progress callback learns the call's token from the first of them
// before that notification reaches the event queue, so that the program
// tells the running call's progress from a late one of a call it
// cancelled.
type callTrack struct {
	token atomic.Pointer[string]
}

// heard is the call's progress callback.
func (t *callTrack) heard(e mcpclient.ProgressEvent) { t.token.CompareAndSwap(nil, &e.Token) }

// owns reports whether a notification is the call's.
func (t *callTrack) owns(e mcpclient.ProgressEvent) bool {
	p := t.token.Load()
	return p != nil && *p == e.Token
}

// runBanner is drawn above the Tools pane while the selected tool runs:
// what runs and for how long, its progress, and the server's message.
// It is runBannerLines lines, so that the pane under it keeps its place.
func (m *Model) runBanner(width int) string {
	if !m.runShown() {
		return ""
	}
	s, t := m.c.Styles, m.selectedTool()
	k := m.c.Keys.Tabs.CancelCall
	head := s.Title.Render(fmt.Sprintf("%scalling %s… %s", m.spinner.View(), widget.Clean(t.Name), time.Since(m.runStart).Round(time.Second))) +
		s.Dim.Render(" · "+k.Help().Key+" cancels")
	lines := []string{widget.Fit(head, width), "", ""}
	switch p := m.progress; {
	case p == nil:
		lines[1] = s.Dim.Render("no progress reported yet")
	case p.Total > 0:
		count := " " + number(p.Progress) + "/" + number(p.Total)
		bar := progress.New(progress.WithDefaultGradient(), progress.WithColorProfile(lipgloss.ColorProfile()),
			progress.WithWidth(max(width-lipgloss.Width(count), 10)))
		lines[1] = widget.Fit(bar.ViewAs(min(max(p.Progress/p.Total, 0), 1))+count, width)
	default:
		lines[1] = widget.Fit(m.spinner.View()+number(p.Progress)+s.Dim.Render(" so far (the server names no total)"), width)
	}
	if p := m.progress; p != nil && p.Message != "" {
		lines[2] = s.Dim.Render(widget.Line(p.Message, width))
	}
	return strings.Join(lines, "\n") + "\n\n"
}

// runBannerLines is the banner's height: its three lines and a blank one.
const runBannerLines = 4

// runShown reports whether the Tools pane shows the running call: the
// running tool is the one selected.
func (m *Model) runShown() bool {
	t := m.selectedTool()
	return t != nil && m.running != "" && m.running == t.Name
}

// paneBanner is how many lines above the current tab's pane something
// else takes (the running call's banner).
func (m *Model) paneBanner() int {
	if m.tab == tabTools && m.runShown() {
		return runBannerLines
	}
	return 0
}

// progressBrief is the running call's progress in a few words, for the
// footer: " · 3/5", " · 3", or "".
func (m *Model) progressBrief() string {
	switch p := m.progress; {
	case p == nil:
		return ""
	case p.Total > 0:
		return " · " + number(p.Progress) + "/" + number(p.Total)
	default:
		return " · " + number(p.Progress)
	}
}

// number is a progress value as a person writes it: 3, 2.5.
func number(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
