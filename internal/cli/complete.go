package cli

import (
	"context"
	"flag"
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
	fs.StringVar(&o.argument.Value, "value", "", "the `VALUE` typed so far, to complete (also the one word after ARGUMENT, when -- or nothing follows it)")
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
	server, err := o.valueAndServer(fs, rest[3:])
	if err != nil {
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
	return o.conn.parseTarget(server)
}

// valueAndServer reads the words after ARGUMENT, flags among them, and
// returns the server's words. The VALUE is --value, or a word followed by
// -- (then the server) or by nothing but flags. A word that could be the
// VALUE or the start of the server's command is never guessed: answered
// from the wrong server (the embedded fixture, say), a completion would
// look right and be wrong, so it is refused with the two ways to say it.
func (o *completeOptions) valueAndServer(fs *flagSet, words []string) ([]string, error) {
	rest, dashed, err := parseFlags(fs, words)
	if err != nil || dashed || len(rest) == 0 || isSet(fs, "value") {
		return rest, err
	}
	word := rest[0]
	more, dashed, err := parseFlags(fs, rest[1:])
	switch {
	case err != nil:
		return nil, err
	case isSet(fs, "value"):
		return nil, usagef("complete: %q and --value both give the VALUE: keep one, and put -- before the server's command", word)
	case dashed || len(more) == 0 && !couldBeServer(word):
		o.argument.Value = word
		return more, nil
	}
	return nil, usagef("complete: is %q the VALUE to complete or the server's command? Give the value with --value VALUE, "+
		"or put -- before the server (mcpeek complete %s NAME ARGUMENT [VALUE] -- SERVER...)", word, strings.TrimPrefix(o.ref.Type, "ref/"))
}

// parseFlags parses the flags at the start of words and returns the words
// after them; dashed says a -- ended the flags.
func parseFlags(fs *flagSet, words []string) (rest []string, dashed bool, err error) {
	if rest, err = fs.parse(words); err != nil {
		return nil, false, err
	}
	used := words[:len(words)-len(rest)]
	return rest, len(used) > 0 && used[len(used)-1] == "--", nil
}

// isSet reports whether the flag name was given.
func isSet(fs *flagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
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
