package nativeform

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/textclean"
)

// AskSamplePlain asks for a model's reply with line prompts, for screen
// readers and minimal terminals (--plain, or TERM=dumb): answer or reject,
// then the reply's lines up to a line holding only ".", the model name and
// the stop reason. End of input cancels.
func AskSamplePlain(ctx context.Context, req SampleRequest, opts Options, in *Lines, out io.Writer) (SampleResult, error) {
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	p := &plain{ctx: ctx, lines: in.ch, out: out}
	res, err := p.askSample(req)
	if err == errEOF {
		return SampleResult{Action: Cancel}, nil
	}
	if err != nil && ctx.Err() == context.DeadlineExceeded && opts.Timeout > 0 {
		fmt.Fprintf(out, "No answer within %s: cancelled.\n", opts.Timeout)
		return SampleResult{Action: Cancel, TimedOut: true}, nil
	}
	return res, err
}

func (p *plain) askSample(req SampleRequest) (SampleResult, error) {
	fmt.Fprintf(p.out, "%s asks for a model's reply\nvia %s\n", formschema.Clean(req.Server), formschema.Clean(req.Connection))
	transcript := formschema.Clean(req.Transcript)
	transcript = textclean.Cut(transcript, maxTranscript, textclean.InBytes(), textclean.Marker("\n…"))
	fmt.Fprintf(p.out, "The request:\n  %s\n", strings.ReplaceAll(transcript, "\n", "\n  "))
	choice, err := p.action("Answer, reject or cancel? [a/r/c] (a): ", "answer", "reject", "cancel")
	switch {
	case err != nil:
		return SampleResult{}, err
	case choice == "answer":
		return p.reply(req)
	case choice == "reject":
		return SampleResult{Action: Reject}, nil
	}
	return SampleResult{Action: Cancel}, nil
}

// reply reads the reply's text, model and stop reason.
func (p *plain) reply(req SampleRequest) (SampleResult, error) {
	fmt.Fprintln(p.out, `Reply, as the model (end with a line holding only "."):`)
	var text []string
	for {
		l, err := p.readRaw()
		if err != nil {
			return SampleResult{}, err
		}
		if strings.TrimSpace(l) == "." {
			break
		}
		text = append(text, l)
	}
	res := SampleResult{Action: Accept, Text: strings.Join(text, "\n"), Model: req.Model, StopReason: StopReasons[0]}
	model, err := p.read("Model [" + req.Model + "]: ")
	if err != nil {
		return SampleResult{}, err
	}
	if model != "" {
		res.Model = model
	}
	for i, r := range StopReasons {
		fmt.Fprintf(p.out, "  %d) %s\n", i+1, r)
	}
	for {
		line, err := p.read("Stop reason, a number [1]: ")
		if err != nil {
			return SampleResult{}, err
		}
		if line == "" {
			return res, nil
		}
		if n, convErr := strconv.Atoi(line); convErr == nil && n >= 1 && n <= len(StopReasons) {
			res.StopReason = StopReasons[n-1]
			return res, nil
		}
		fmt.Fprintln(p.out, "  ! not one of the numbers shown")
	}
}

// readRaw reads one line as typed, its spaces kept (a reply's indentation
// may matter).
func (p *plain) readRaw() (string, error) {
	select {
	case <-p.ctx.Done():
		fmt.Fprintln(p.out)
		return "", p.ctx.Err()
	case line, ok := <-p.lines:
		if !ok {
			return "", errEOF
		}
		return strings.TrimRight(line, "\r"), nil
	}
}
