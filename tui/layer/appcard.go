// The app card: the elicitations being answered in their app in the
// browser, above the tabs.

package layer

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// AbandonApp asks the program to answer natively the request Key that is
// being answered in its app.
type AbandonApp struct{ Key string }

// AppCard shows, above the tabs, the elicitations being answered in their
// app in the browser. The tabs stay usable under it: it takes only n,
// which answers the first natively instead, and passes them every other
// key, and the footer.
type AppCard struct {
	c         *widget.Common
	inApp     func() []mcpclient.Pending
	filtering func() bool
	appURL    func(key string) (string, bool)
	sshHint   string
}

// NewAppCard is the card on the requests inApp lists (asked each time it
// is drawn or keyed); filtering says a tab's filter is being typed (n is
// a letter of it then); appURL is the address of a request's app, and
// sshHint the command to forward its port (both nil or "" when unknown).
func NewAppCard(c *widget.Common, inApp func() []mcpclient.Pending, filtering func() bool, appURL func(string) (string, bool), sshHint string) *AppCard {
	return &AppCard{c: c, inApp: inApp, filtering: filtering, appURL: appURL, sshHint: sshHint}
}

// Update takes n, and passes every other key.
func (l *AppCard) Update(msg tea.Msg) Action {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if !key.Matches(k, AppCardKeys.Abandon) || l.filtering() {
		return Pass{}
	}
	if inApp := l.inApp(); len(inApp) > 0 {
		return AbandonApp{inApp[0].Key}
	}
	return nil
}

// View is the card in at most about height lines: as many requests as
// fit, each with its URL whole, then how many more there are.
func (l *AppCard) View(width, height int) string {
	s := l.c.Styles
	inApp := l.inApp()
	if len(inApp) == 0 {
		return ""
	}
	var ssh string
	if l.sshHint != "" && l.appURL != nil {
		ssh = "\n" + s.Dim.Render("over SSH, forward the port first:") + "\n" + widget.WrapWhole(l.sshHint, width)
	}
	used := 3 + lipgloss.Height(ssh) // the box's frame and heading, and the SSH lines
	var rows, links []string
	for i, p := range inApp {
		row := s.Dim.Render(p.Key+" · ") + widget.Line(p.Message, width-16) + "\n" +
			s.Dim.Render("     app "+widget.Line(p.ResourceURI, width-20))
		var link string
		if l.appURL != nil {
			if u, ok := l.appURL(p.Key); ok {
				// Whole, wrapped at the edge rather than cut, so that every
				// character of it can be copied.
				link = s.Dim.Render("open "+p.Key+":") + "\n" + widget.WrapWhole(u, width)
			}
		}
		need := 2 + lipgloss.Height(link)
		if i > 0 && used+need+1 > height { // keep a line to say how many more
			rows = append(rows, s.Dim.Render(fmt.Sprintf("… and %d more in the browser", len(inApp)-i)))
			break
		}
		used += need
		rows = append(rows, row)
		if link != "" {
			links = append(links, link)
		}
	}
	abandon := AppCardKeys.Abandon.Help()
	text := s.Title.Render(fmt.Sprintf("answering in the browser (%d)", len(inApp))) +
		s.Dim.Render(fmt.Sprintf(" · %s answers %s natively instead", abandon.Key, inApp[0].Key)) +
		"\n" + strings.Join(rows, "\n")
	card := s.Box.Width(max(width-4, 20)).Render(text)
	if len(links) > 0 {
		card += "\n" + strings.Join(links, "\n") + ssh
	}
	return card
}

// Help is n.
func (l *AppCard) Help() []key.Binding { return AppCardKeys.ShortHelp() }

// Rank: the card lies on the tabs, under every other layer.
func (*AppCard) Rank() Rank { return Backdrop }

// Banner: the tabs are drawn under the card, and keep the footer.
func (*AppCard) Banner() {}

// AppCardKeyMap holds the keys that work while an elicitation is
// answered in its app (the app card).
type AppCardKeyMap struct {
	Abandon key.Binding
}

// AppCardKeys are the bindings of [AppCardKeyMap].
var AppCardKeys = AppCardKeyMap{Abandon: keys.New("n", "answer natively instead", "n")}

// ShortHelp is the app card's part of the footer.
func (k AppCardKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Abandon} }

// FullHelp lists the app card's keys.
func (k AppCardKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Abandon}} }
