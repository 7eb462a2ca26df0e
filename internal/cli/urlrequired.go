package cli

import (
	"context"
	"fmt"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxURLRounds bounds how often `call --interactive` calls again a tool
// the server keeps refusing until a page is opened.
const maxURLRounds = 3

// urlRequiredError is a call the server refused until the person opens
// pages (URLElicitationRequiredError, -32042) that was not called again:
// exit 1, as the lines before it named each page.
type urlRequiredError struct {
	tool        string
	pages       int
	interactive bool
}

func (e urlRequiredError) Error() string {
	what, it := "a page", "it"
	if e.pages > 1 {
		what, it = fmt.Sprintf("%d pages", e.pages), "them"
	}
	next := "open " + it + ", then run the call again"
	if !e.interactive {
		next += " (--interactive calls again once you say you are done)"
	}
	return fmt.Sprintf("call %s: the server needs you to open %s first (URL elicitation required, -32042): %s", e.tool, what, next)
}

// callRetrying calls the tool; when the server refuses the call until the
// person opens pages (-32042), each page goes to the asker as a URL
// elicitation of the call (recorded, --elicit-log) and a line names it on
// stderr. Once every page was consented to (with --interactive, submitted:
// the person says they are done; headless, by an answers-file entry, a
// test's stand-in for the person), the call is made again, at most
// maxURLRounds times. Otherwise the call fails with urlRequiredError.
func (o *callOptions) callRetrying(ctx context.Context, conn *mcpclient.Conn, s streams) (*mcp.CallToolResult, error) {
	res, err := o.callTool(ctx, conn, s)
	for round := 1; ; round++ {
		u, ok, bad := mcpclient.URLRequiredOf(err)
		switch {
		case !ok:
			return res, err
		case bad != nil:
			return nil, fmt.Errorf("call %s: %w", o.tool, bad)
		}
		answers, askErr := conn.AskURLs(ctx, "tools/call "+o.tool, u)
		if askErr != nil {
			return nil, fmt.Errorf("call %s: %w", o.tool, askErr)
		}
		sayURLs(s, o.tool, u)
		if round > maxURLRounds || !allAccepted(answers) {
			return nil, urlRequiredError{tool: o.tool, pages: len(u.Elicitations) + u.Dropped, interactive: o.interactive}
		}
		fmt.Fprintln(s.errOut, textclean.OneLine("mcpeek: calling "+o.tool+" again"))
		res, err = o.callTool(ctx, conn, s)
	}
}

// sayURLs names on stderr each page the server wants opened.
func sayURLs(s streams, tool string, u *mcpclient.URLRequired) {
	fmt.Fprintln(s.errOut, textclean.OneLine(fmt.Sprintf("mcpeek: the server refused tools/call %s until you open:", tool)))
	for _, p := range u.Elicitations {
		// The URL whole and alone, so that it can be copied.
		fmt.Fprintln(s.errOut, "mcpeek:   "+textclean.OneLine(p.URL))
		if msg := textclean.OneLine(p.Message); msg != "" {
			fmt.Fprintln(s.errOut, "mcpeek:     "+textclean.Cut(msg, 300))
		}
	}
	if u.Dropped > 0 {
		fmt.Fprintf(s.errOut, "mcpeek:   and %s, not shown\n", formschema.Plural(u.Dropped, "more page", "more pages"))
	}
}

// allAccepted reports whether the person consented to every page.
func allAccepted(answers []*mcp.ElicitResult) bool {
	for _, a := range answers {
		if a.Action != "accept" {
			return false
		}
	}
	return len(answers) > 0
}
