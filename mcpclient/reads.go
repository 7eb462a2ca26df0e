package mcpclient

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Read reads a resource (resources/read).
func (c *Conn) Read(ctx context.Context, uri string) (_ *mcp.ReadResourceResult, err error) {
	ctx, done := c.bind(ctx)
	defer done()
	defer c.blameSize(&err)
	return c.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
}

// GetPrompt gets a prompt with its arguments filled in (prompts/get).
func (c *Conn) GetPrompt(ctx context.Context, name string, args map[string]string) (_ *mcp.GetPromptResult, err error) {
	ctx, done := c.bind(ctx)
	defer done()
	defer c.blameSize(&err)
	return c.session.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
}

// blameSize makes a failed request's error the message too large, when a
// URL server sent one: the request's own error is only its consequence.
func (c *Conn) blameSize(err *error) {
	if big := c.tooLarge.Load(); *err != nil && big != nil {
		*err = big
	}
}
