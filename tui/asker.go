//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FormAsker answers elicitations with the native form, and sampling
// requests with the sample form, drawn on a terminal. Concurrent requests
// of both kinds queue and are shown one at a time.
type FormAsker struct {
	In  io.Reader
	Out io.Writer
	// Timeout is --elicit-timeout: each form cancels itself after it.
	Timeout time.Duration
	// Interrupt is called after Ctrl+C cancelled a form, so that the
	// program stops as it would on Ctrl+C anywhere else.
	Interrupt func()
	// Log receives one line per form that timed out.
	Log io.Writer
	// Plain asks with line prompts instead of a full-screen form.
	Plain bool
	// Secrets are redacted from what the forms show (the run's: -H and
	// config credentials, tokens): they draw on the terminal itself, not
	// through the run's redacting writers.
	Secrets *mcpclient.Secrets

	once    sync.Once
	turn    chan struct{} // holds a token while a form is on the terminal
	waiting atomic.Int32
	lines   *nativeform.Lines // plain mode's one reader of In
}

// Ask implements [mcpclient.NativeAsker].
func (a *FormAsker) Ask(ctx context.Context, req *mcpclient.NativeRequest) (*mcp.ElicitResult, error) {
	done, pending, err := a.takeTurn(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	fr := FormRequest(req, a.Secrets.Redact)
	fr.Position, fr.Total = 1, pending
	var res nativeform.Result
	if a.Plain {
		res, err = nativeform.AskPlain(ctx, fr, nativeform.Options{Timeout: a.Timeout}, a.plainLines(), a.Out)
	} else {
		res, err = RunForm(ctx, fr, nativeform.Options{Timeout: a.Timeout}, a.In, a.Out)
	}
	if err != nil {
		return nil, err
	}
	if res.TimedOut && a.Log != nil {
		fmt.Fprintf(a.Log, "mcpeek: elicitation %s was cancelled: nobody answered within %s\n", req.Key, a.Timeout)
	}
	if res.Interrupted && a.Interrupt != nil {
		defer a.Interrupt()
	}
	out := &mcp.ElicitResult{Action: string(res.Action)}
	if res.Action == nativeform.Accept && req.Schema != nil {
		out.Content = res.Content
	}
	return out, nil
}

// takeTurn waits for the terminal, one form at a time, or for the request
// to end. It returns what gives the terminal back, and how many requests
// want it, this one included. A request counts as waiting (WatchApps
// leaves the terminal alone) until it gives the terminal back.
func (a *FormAsker) takeTurn(ctx context.Context) (done func(), pending int, err error) {
	a.waiting.Add(1)
	a.once.Do(func() { a.turn = make(chan struct{}, 1) })
	select {
	case a.turn <- struct{}{}:
		return func() { <-a.turn; a.waiting.Add(-1) }, int(a.waiting.Load()), nil
	case <-ctx.Done():
		a.waiting.Add(-1)
		return nil, 0, ctx.Err()
	}
}

// plainLines is plain mode's one reader of In, started on first use. Only
// the request holding the turn calls it.
func (a *FormAsker) plainLines() *nativeform.Lines {
	if a.lines == nil {
		a.lines = nativeform.NewLines(a.In)
	}
	return a.lines
}

// Sample implements [mcpclient.Sampler]: the sample form, or its line
// prompts in plain mode, on the terminal in turn with the elicitations.
// Reject and cancel refuse the request; a form nobody answers in time
// fails it with an error saying so.
func (a *FormAsker) Sample(ctx context.Context, req *mcpclient.SampleRequest) (*mcp.CreateMessageWithToolsResult, error) {
	done, pending, err := a.takeTurn(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	sr := sampleFormRequest(req, a.Secrets.Redact)
	sr.Position, sr.Total = 1, pending
	opts := nativeform.Options{Timeout: a.Timeout}
	var res nativeform.SampleResult
	if a.Plain {
		res, err = nativeform.AskSamplePlain(ctx, sr, opts, a.plainLines(), a.Out)
	} else {
		res, err = RunSampleForm(ctx, sr, opts, a.In, a.Out)
	}
	if err != nil {
		return nil, err
	}
	if res.TimedOut && a.Log != nil {
		fmt.Fprintf(a.Log, "mcpeek: sampling request %s failed: nobody answered within %s\n", req.Key, a.Timeout)
	}
	if res.Interrupted && a.Interrupt != nil {
		defer a.Interrupt()
	}
	ans := sampleOutcome(res, a.Timeout)
	return ans.res, ans.err
}

// FormRequest frames a native request for the form: the server's identity
// and connection, its message, and why the app did not render it, with the
// secrets redact knows redacted from all it shows (before the form wraps
// or cuts any of it).
func FormRequest(req *mcpclient.NativeRequest, redact func(string) string) nativeform.Request {
	req = widget.RedactNative(req, redact)
	server := req.Server.Title
	if server == "" {
		server = req.Server.Name
	}
	if server == "" {
		server = "The server"
	}
	fr := nativeform.Request{
		Server:     server,
		Connection: req.Connection,
		Message:    req.Params.Message,
		Schema:     req.Schema,
	}
	switch {
	case req.Fallback == mcpclient.FallbackAppHostOff && req.ResourceURI() != "":
		fr.Note = "rendered natively: the server offers its app for this; run mcpeek with --app-host to use it"
	case req.Fallback != mcpclient.FallbackNone && req.Fallback != mcpclient.FallbackAppHostOff:
		fr.Note = "rendered natively: " + req.Fallback.Describe()
	}
	if req.Schema == nil { // URL mode: consent to open a page
		fr.Schema = &formschema.Schema{}
		host := req.Params.URL
		if u, err := url.Parse(req.Params.URL); err == nil && u.Host != "" {
			host = u.Host
		}
		fr.Message = fmt.Sprintf("%s\n\nIt asks you to open:\n%s\n(host: %s)\nSubmit to consent, then open it yourself; decline or cancel to refuse.",
			req.Params.Message, req.Params.URL, host)
		if req.Refused != "" { // a page a refused call needs (-32042): submitting calls again
			fr.Message = fmt.Sprintf("%s\n\nIt refused %s until you open:\n%s\n(host: %s)\nOpen it yourself and finish there, then submit to call again; decline or cancel to stop.",
				req.Params.Message, req.Refused, req.Params.URL, host)
		}
	}
	return fr
}

// RunForm shows one form on the terminal until it settles or ctx ends.
func RunForm(ctx context.Context, req nativeform.Request, opts nativeform.Options, in io.Reader, out io.Writer) (nativeform.Result, error) {
	nativeform.UseOutput(out) // its colours follow the terminal it is drawn on
	form := nativeform.New(req, opts)
	p := tea.NewProgram(nativeform.Standalone(form), tea.WithInput(in), tea.WithOutput(out), tea.WithContext(ctx))
	if _, err := p.Run(); err != nil && ctx.Err() == nil && !errors.Is(err, tea.ErrProgramKilled) {
		return nativeform.Result{}, fmt.Errorf("show the form: %w", err)
	}
	if res, ok := form.Result(); ok {
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return nativeform.Result{}, err
	}
	return nativeform.Result{}, errors.New("the form closed without an answer")
}

// RunSampleForm shows one sample form on the terminal until it settles or
// ctx ends.
func RunSampleForm(ctx context.Context, req nativeform.SampleRequest, opts nativeform.Options, in io.Reader, out io.Writer) (nativeform.SampleResult, error) {
	nativeform.UseOutput(out)
	form := nativeform.NewSample(req, opts)
	p := tea.NewProgram(nativeform.StandaloneSample(form), tea.WithInput(in), tea.WithOutput(out), tea.WithContext(ctx))
	if _, err := p.Run(); err != nil && ctx.Err() == nil && !errors.Is(err, tea.ErrProgramKilled) {
		return nativeform.SampleResult{}, fmt.Errorf("show the form: %w", err)
	}
	if res, ok := form.Result(); ok {
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return nativeform.SampleResult{}, err
	}
	return nativeform.SampleResult{}, errors.New("the form closed without an answer")
}
