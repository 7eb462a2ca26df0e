package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// completeOptions are `mcpeek complete`'s: ask the server to complete one
// argument of a prompt or one variable of a resource template.
type completeOptions struct {
	conn    connFlags
	context listFlag // NAME=VALUE: the values already given

	// Set by parse.
	ref      *mcp.CompleteReference
	argument mcp.CompleteParamsArgument
	given    map[string]string
}

func newCompleteOptions(fs *flagSet) options {
	o := &completeOptions{}
	o.conn.register(fs, true)
	fs.Var(&o.context, "context", "a `NAME=VALUE` already given for another argument, which the completion may depend on (repeatable)")
	return o
}

func (o *completeOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) < 3 {
		return usagef("complete: say what to complete: prompt NAME ARGUMENT [VALUE] or resource TEMPLATE VARIABLE [VALUE]")
	}
	switch rest[0] {
	case "prompt":
		o.ref = &mcp.CompleteReference{Type: "ref/prompt", Name: rest[1]}
	case "resource":
		o.ref = &mcp.CompleteReference{Type: "ref/resource", URI: rest[1]}
	default:
		return usagef("complete: cannot complete %q (want prompt or resource)", rest[0])
	}
	o.argument.Name = rest[2]
	words := rest[3:]
	if len(words) > 0 && words[0] != "--" && !strings.HasPrefix(words[0], "-") {
		o.argument.Value, words = words[0], words[1:]
	}
	if words, err = fs.parse(words); err != nil {
		return err
	}
	for _, kv := range o.context {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return usagef("--context %q is not of the form NAME=VALUE", kv)
		}
		if o.given == nil {
			o.given = map[string]string{}
		}
		o.given[name] = value
	}
	return o.conn.parseTarget(words)
}

func (o *completeOptions) run(ctx context.Context, s streams) error {
	return o.conn.headless(ctx, s, &mcpclient.HeadlessAsker{Stderr: s.errOut}, nil, func(ctx context.Context, conn *mcpclient.Conn) error {
		res, err := conn.Complete(ctx, o.ref, o.argument, o.given)
		if err != nil {
			return fmt.Errorf("complete %s: %w", o.argument.Name, err)
		}
		return writeJSON(s.out, res)
	})
}
