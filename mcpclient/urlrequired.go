package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxURLsRequired bounds the pages one refusal may ask to open: more are
// not shown, so that a server cannot flood the person with cards.
const maxURLsRequired = 8

// URLRequired is what a server's URLElicitationRequiredError (-32042)
// asks for: pages the person must open, and finish with, before the
// request can succeed (docs/architecture.md, "URL elicitation required").
// go-sdk leaves it to the client; mcpeek shows each page as a URL
// elicitation and calls again when the person says they are done.
type URLRequired struct {
	// Elicitations are the pages, as the url-mode elicitation/create
	// params the server put in error.data.elicitations.
	Elicitations []*mcp.ElicitParams
	// Raw are the same, as the server wrote them.
	Raw []json.RawMessage
	// Dropped is how many more the server named than are kept.
	Dropped int
}

// URLRequiredOf returns the pages a failed request's error asks to open,
// when the server answered with -32042, and whether it did. An error data
// that does not parse, names no page or names one that is not url mode is
// an error saying so (ok stays true: the server did refuse the call).
func URLRequiredOf(err error) (u *URLRequired, ok bool, bad error) {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != mcp.CodeURLElicitationRequired {
		return nil, false, nil
	}
	var data struct {
		Elicitations []json.RawMessage `json:"elicitations"`
	}
	if len(rpcErr.Data) == 0 || json.Unmarshal(rpcErr.Data, &data) != nil {
		return nil, true, errors.New("the server's URL elicitation required error (-32042) has no readable error.data.elicitations")
	}
	u = &URLRequired{}
	for i, raw := range data.Elicitations {
		if i == maxURLsRequired {
			u.Dropped = len(data.Elicitations) - i
			break
		}
		var p mcp.ElicitParams
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, true, fmt.Errorf("the server's URL elicitation required error (-32042): elicitation %d: %w", i+1, err)
		}
		if p.Mode != "url" || p.URL == "" {
			return nil, true, fmt.Errorf("the server's URL elicitation required error (-32042): elicitation %d is not a url-mode elicitation with a url", i+1)
		}
		u.Elicitations = append(u.Elicitations, &p)
		u.Raw = append(u.Raw, raw)
	}
	if len(u.Elicitations) == 0 {
		return nil, true, errors.New("the server's URL elicitation required error (-32042) names no page to open")
	}
	return u, true, nil
}

// AskURLs shows each page of a refused call to the person, one after the
// other, through the native asker as a URL elicitation (a consent card, or
// headless answers), each given a key and recorded with path url. call
// names the refused call ("tools/call NAME"). The answers come back in
// order; the server hears none of them: it learns that the person is done
// from the call made again. It stops at the first error (ctx ended).
func (c *Conn) AskURLs(ctx context.Context, call string, u *URLRequired) ([]*mcp.ElicitResult, error) {
	c.wire.Note(fmt.Sprintf("%s: the server asks for %d page(s) to be opened first (URL elicitation required, -32042)", call, len(u.Elicitations)+u.Dropped))
	out := make([]*mcp.ElicitResult, 0, len(u.Elicitations))
	for i, p := range u.Elicitations {
		res, err := c.router.elicit(ctx, p, u.Raw[i], call)
		if err != nil {
			return out, err
		}
		out = append(out, res)
	}
	return out, nil
}
