// The app card (tui/layer, AppCard) on the program's side: open while an
// elicitation is answered in its app in the browser.

package tui

import (
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// showAppCard opens the app card while an elicitation is answered in its
// app, and closes it when none is.
func (m *Model) showAppCard() {
	card, shown := findLayer[*layer.AppCard](&m.stack)
	switch n := len(inApp(m.pending)); {
	case n > 0 && !shown:
		m.host(layer.NewAppCard(&m.c, func() []mcpclient.Pending { return inApp(m.pending) }, m.filtering, m.opts.AppURL, m.opts.AppSSHHint))
	case n == 0 && shown:
		m.close(card)
	}
}

// inApp are the requests being answered in their app.
func inApp(pending []mcpclient.Pending) []mcpclient.Pending {
	var out []mcpclient.Pending
	for _, p := range pending {
		if p.Path == mcpclient.PathApp {
			out = append(out, p)
		}
	}
	return out
}

// wrapWhole breaks a URL or a command at the edge, wherever it falls, so
// that none of it is cut and its spaces survive for copying.
func wrapWhole(s string, width int) string { return widget.WrapWhole(s, width) }
