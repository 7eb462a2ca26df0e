package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// promptOptions are `mcpeek prompt`'s: get one prompt.
type promptOptions struct {
	conn     connFlags
	argsJSON string

	// Set by parse.
	name string
	args map[string]string
}

func newPromptOptions(fs *flagSet) options {
	o := &promptOptions{}
	o.conn.register(fs, true)
	fs.StringVar(&o.argsJSON, "args", "", "the prompt's arguments as a JSON object of strings")
	return o
}

func (o *promptOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("prompt: name the prompt to get")
	}
	o.name = rest[0]
	// Flags may also follow the name.
	if rest, err = fs.parse(rest[1:]); err != nil {
		return err
	}
	if o.args, err = promptArgs(o.argsJSON); err != nil {
		return err
	}
	return o.conn.parseTarget(rest)
}

// promptArgs reads --args: a JSON object whose values are strings, as a
// prompt's arguments are.
func promptArgs(text string) (map[string]string, error) {
	if text == "" {
		return nil, nil
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(text), &obj); err != nil || obj == nil {
		return nil, usagef("--args must be a JSON object: %s", jsonProblem(err))
	}
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	sort.Strings(names)
	args := make(map[string]string, len(obj))
	for _, name := range names {
		s, ok := obj[name].(string)
		if !ok {
			return nil, usagef("--args: a prompt's arguments are strings, and %q is %s: write it in quotes", name, jsonKind(obj[name]))
		}
		args[name] = s
	}
	return args, nil
}

// jsonKind names the JSON type of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "not a string"
}

func (o *promptOptions) run(ctx context.Context, s streams) error {
	return o.conn.headless(ctx, s, &mcpclient.HeadlessAsker{Stderr: s.errOut}, nil, func(ctx context.Context, conn *mcpclient.Conn) error {
		res, err := conn.GetPrompt(ctx, o.name, o.args)
		if err != nil {
			return fmt.Errorf("prompt %s: %w", o.name, err)
		}
		return writeJSON(s.out, res)
	})
}
