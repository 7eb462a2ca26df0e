package cli

import (
	"context"
	"fmt"

	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listOptions are `mcpeek list`'s.
type listOptions struct {
	conn connFlags
	what string // tools, resources or prompts; set by parse
}

func newListOptions(fs *flagSet) options {
	o := &listOptions{}
	o.conn.register(fs, true)
	return o
}

func (o *listOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("list: say what to list: tools, resources or prompts")
	}
	o.what = rest[0]
	switch o.what {
	case "tools", "resources", "prompts":
	default:
		return usagef("list: cannot list %q (want tools, resources or prompts)", o.what)
	}
	if rest, err = fs.parse(rest[1:]); err != nil {
		return err
	}
	return o.conn.parseTarget(rest)
}

func (o *listOptions) run(ctx context.Context, s streams) error {
	return o.conn.headless(ctx, s, &mcpclient.HeadlessAsker{Stderr: s.errOut}, nil, func(ctx context.Context, conn *mcpclient.Conn) error {
		if !offers(conn.ServerCapabilities(), o.what) {
			// Not asked: a server need not answer for what it does not
			// offer. The list is empty, and stderr says why.
			fmt.Fprintf(s.errOut, "mcpeek: the server offers no %s (its capabilities have no %q)\n", o.what, o.what)
			return writeJSON(s.out, map[string]any{o.what: []any{}})
		}
		out, err := conn.List(ctx, o.what)
		if err != nil {
			return fmt.Errorf("list %s: %w", o.what, err)
		}
		return writeJSON(s.out, conn.AsListed(out))
	})
}

// offers reports whether the server's capabilities offer what: tools,
// resources or prompts.
func offers(caps *mcp.ServerCapabilities, what string) bool {
	if caps == nil {
		return false
	}
	switch what {
	case "tools":
		return caps.Tools != nil
	case "resources":
		return caps.Resources != nil
	case "prompts":
		return caps.Prompts != nil
	}
	return false
}

// capsOptions are `mcpeek caps`'s.
type capsOptions struct {
	conn connFlags
}

func newCapsOptions(fs *flagSet) options {
	o := &capsOptions{}
	o.conn.register(fs, true)
	return o
}

func (o *capsOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	return o.conn.parseTarget(rest)
}

func (o *capsOptions) run(ctx context.Context, s streams) error {
	return o.conn.headless(ctx, s, &mcpclient.HeadlessAsker{Stderr: s.errOut}, nil, func(_ context.Context, conn *mcpclient.Conn) error {
		if src := o.conn.selection.Source(); src != nil {
			// A server from a config says which.
			return writeJSON(s.out, struct {
				*mcpclient.CapsReport
				Source *session.SourceReport `json:"source"`
			}{conn.Caps(), src})
		}
		return writeJSON(s.out, conn.Caps())
	})
}
