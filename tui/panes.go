// The text of the panes the model makes (the Tools and Prompts tabs':
// the page's own text, after what the connection's failure says). What
// is drawn is redacted (widget.Redact) of the secrets the connections
// know (-H and config credentials, tokens), since a server may quote one
// back: before it is wrapped or cut, and the whole frame again (View), so
// that no secret shows whole or in part.

package tui

import (
	"github.com/mcpeek/mcpeek/tui/page"
)

// paneText is what the Tools or Prompts tab's pane shows (syncPages), and
// what y copies there.
func (m *Model) paneText() string {
	switch p := m.current().(type) {
	case *page.Tools:
		return m.withFailure(&m.c, m.opts.Target, p.Text())
	case *page.Prompts:
		return p.Text()
	}
	return ""
}
