// The text of the panes the model makes (the Tools and Prompts tabs':
// the page's own text, after what the connection's failure says), and
// the redaction of what is drawn.

package tui

import (
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// redact hides the secrets the connections know (-H and config
// credentials, tokens) in text about to be drawn: a server may quote one
// back. Text is redacted before it is wrapped or cut (here, and in clean
// and line), and the whole frame again (View), so that no secret shows
// whole or in part. The wire log and its connections share one set,
// redacted once (see shown).
func (m *Model) redact(text string) string { return widget.Redact(text) }

// paneText is what the Tools or Prompts tab's pane shows (syncPages), and
// what y copies there.
func (m *Model) paneText() string {
	switch m.tab {
	case tabTools:
		return m.withFailure(pageOf[*page.Tools](m).Text())
	case tabPrompts:
		return pageOf[*page.Prompts](m).Text()
	case tabResources, tabRequests, tabLog, tabInfo, tabCount:
	}
	return ""
}
