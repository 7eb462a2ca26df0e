package nativeform

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpeek/mcpeek/formschema"
)

// Lines reads an input line by line for plain mode. One Lines serves every
// plain-mode question of a run, so that no question reads ahead into the
// next one's answers.
type Lines struct {
	ch chan string
}

// NewLines starts reading in; the reader stops at the end of the input.
func NewLines(in io.Reader) *Lines {
	l := &Lines{ch: make(chan string)}
	go func() {
		defer close(l.ch)
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			l.ch <- sc.Text()
		}
	}()
	return l
}

// AskPlain asks field by field with line prompts, for screen readers and
// minimal terminals (--plain, or TERM=dumb). An empty line keeps the
// pre-filled default or leaves the field unanswered; end of input cancels.
func AskPlain(ctx context.Context, req Request, opts Options, in *Lines, out io.Writer) (Result, error) {
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	p := &plain{ctx: ctx, lines: in.ch, out: out}
	res, err := p.ask(req)
	if err != nil && ctx.Err() == context.DeadlineExceeded && opts.Timeout > 0 {
		fmt.Fprintf(out, "No answer within %s: cancelled.\n", opts.Timeout)
		return Result{Action: Cancel, TimedOut: true}, nil
	}
	return res, err
}

type plain struct {
	ctx   context.Context
	lines <-chan string
	out   io.Writer
}

var errEOF = fmt.Errorf("end of input")

func (p *plain) read(prompt string) (string, error) {
	fmt.Fprint(p.out, prompt)
	select {
	case <-p.ctx.Done():
		fmt.Fprintln(p.out)
		return "", p.ctx.Err()
	case line, ok := <-p.lines:
		if !ok {
			return "", errEOF
		}
		return strings.TrimSpace(line), nil
	}
}

func (p *plain) ask(req Request) (Result, error) {
	fmt.Fprintf(p.out, "%s is asking for input\nvia %s\n", formschema.Clean(req.Server), formschema.Clean(req.Connection))
	if req.Note != "" {
		fmt.Fprintln(p.out, req.Note)
	}
	fmt.Fprintf(p.out, "Message from the server:\n  %s\n", strings.ReplaceAll(formschema.Clean(req.Message), "\n", "\n  "))
	choice, err := p.action("Answer, decline or cancel? [a/d/c] (a): ", "answer", "decline", "cancel")
	switch {
	case err == errEOF:
		return Result{Action: Cancel}, nil
	case err != nil:
		return Result{}, err
	case choice == "answer":
		return p.fill(req)
	case choice == "decline":
		return Result{Action: Decline}, nil
	}
	return Result{Action: Cancel}, nil
}

// action asks until the answer is one of words, or its first letter; an
// empty answer is the first word.
func (p *plain) action(prompt string, words ...string) (string, error) {
	for {
		answer, err := p.read(prompt)
		if err != nil {
			return "", err
		}
		answer = strings.ToLower(answer)
		if answer == "" {
			return words[0], nil
		}
		for _, w := range words {
			if answer == w || answer == w[:1] {
				return w, nil
			}
		}
	}
}

func (p *plain) fill(req Request) (Result, error) {
	values := make([]*value, len(req.Schema.Fields))
	for i := range req.Schema.Fields {
		values[i] = newValue(&req.Schema.Fields[i])
	}
	content := func() map[string]any { return contentOf(values) }
	all := leaves(values)
	todo := all
	for {
		var group *value
		for _, v := range todo {
			if v.group != nil && v.group != group { // a group's heading, before its fields
				fmt.Fprintln(p.out, v.group.field.Label+":")
				if d := description(v.group.field); d != "" {
					fmt.Fprintf(p.out, "  %s\n", d)
				}
			}
			group = v.group
			if err := p.field(v); err != nil {
				if err == errEOF {
					return Result{Action: Cancel}, nil
				}
				return Result{}, err
			}
		}
		errs := req.Schema.Validate(content())
		if len(errs) == 0 {
			return Result{Action: Accept, Content: content()}, nil
		}
		todo = nil
		for _, e := range errs {
			fmt.Fprintf(p.out, "  ! %s\n", e.Error())
			key := e.Key
			if e.Sub != "" {
				key += "\x00" + e.Sub
			}
			for _, v := range all {
				if v.errorKey() == key {
					todo = append(todo, v)
				}
			}
		}
		if len(todo) == 0 {
			return Result{Action: Cancel}, nil
		}
	}
}

func (p *plain) field(v *value) error {
	f := v.field
	label := f.Label
	if f.Required {
		label += " (required)"
	}
	fmt.Fprintln(p.out, label)
	if d := description(f); d != "" {
		fmt.Fprintf(p.out, "  %s\n", d)
	}
	switch v.control {
	case controlInput:
		hint := placeholder(f)
		if v.text != "" {
			hint = "now: " + v.text
		}
		if hint != "" {
			hint = " [" + hint + "]"
		}
		line, err := p.read("  value" + hint + ": ")
		if err == nil && line != "" {
			v.text = line
		}
		return err
	case controlConfirm:
		def := "no"
		if v.yes {
			def = "yes"
		}
		line, err := p.read("  yes or no [" + def + "]: ")
		if err == nil && line != "" {
			v.yes = strings.HasPrefix(strings.ToLower(line), "y")
		}
		return err
	case controlSelect:
		return p.choose(v)
	case controlMulti:
		return p.chooseMany(v)
	case controlList:
		return p.items(v)
	}
	return nil
}

// items asks for a list's items, one a line, until an empty line; an
// empty first line keeps the list as it is, and "-" empties it.
func (p *plain) items(v *value) error {
	now := "empty"
	if len(v.items) > 0 {
		now = strings.Join(v.items, ", ")
	}
	fmt.Fprintf(p.out, "  one item a line, an empty line ends (now: %s; an empty first line keeps it, - empties it)\n", now)
	var items []string
	for {
		line, err := p.read("  item: ")
		if err != nil {
			return err
		}
		switch {
		case line == "" && items == nil:
			return nil
		case line == "":
			v.items = items
			return nil
		case line == "-" && items == nil:
			v.items = nil
			return nil
		}
		items = append(items, line)
	}
}

// choose asks for one of the numbered options of a select field.
func (p *plain) choose(v *value) error {
	opts := v.options()
	for i, o := range opts {
		fmt.Fprintf(p.out, "  %d) %s\n", i+1, o.Title)
	}
	keep := []string{}
	if v.choice != noAnswer && v.choice <= len(opts) {
		keep = append(keep, opts[v.choice-1].Title)
	}
	line, err := p.read("  number (empty: " + kept(keep) + "): ")
	if err == nil && line != "" {
		if n, convErr := strconv.Atoi(line); convErr == nil && n >= 1 && n <= len(opts) {
			v.choice = n
		} else {
			fmt.Fprintln(p.out, "  ! not one of the numbers shown; kept as it was")
		}
	}
	return err
}

// kept says what an empty answer to a choice keeps: the options chosen
// (or pre-filled from the default), or no answer.
func kept(titles []string) string {
	if len(titles) == 0 {
		return "no answer"
	}
	return "keep " + strings.Join(titles, ", ")
}

// chooseMany asks for a comma-separated list of a multi-select's options.
func (p *plain) chooseMany(v *value) error {
	opts := v.field.Options
	for i, o := range opts {
		fmt.Fprintf(p.out, "  %d) %s\n", i+1, o.Title)
	}
	var keep []string
	for _, i := range v.picks {
		if i >= 0 && i < len(opts) {
			keep = append(keep, opts[i].Title)
		}
	}
	line, err := p.read("  numbers separated by commas (empty: " + kept(keep) + "): ")
	if err != nil || line == "" {
		return err
	}
	var picks []int
	for _, part := range strings.Split(line, ",") {
		n, convErr := strconv.Atoi(strings.TrimSpace(part))
		if convErr != nil || n < 1 || n > len(opts) {
			fmt.Fprintln(p.out, "  ! not one of the numbers shown; kept as it was")
			return nil
		}
		picks = append(picks, n-1)
	}
	v.picks = picks
	return nil
}
