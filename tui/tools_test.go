package tui

import (
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolsPage is m's Tools tab.
func toolsPage(m *Model) *page.Tools { return pageOf[*page.Tools](m) }

// setTools lists tools on m's Tools tab, as the server's lists do.
func setTools(m *Model, tools ...*mcp.Tool) { toolsPage(m).Update(page.ToolList{Tools: tools}) }

// setPrompts lists prompts on m's Prompts tab.
func setPrompts(m *Model, prompts ...*mcp.Prompt) {
	pageOf[*page.Prompts](m).Update(page.PromptList{Prompts: prompts})
}
