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
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FormAsker answers elicitations with the native form, drawn on a terminal.
// Concurrent requests queue and are shown one at a time.
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

	once    sync.Once
	turn    chan struct{} // holds a token while a form is on the terminal
	waiting atomic.Int32
	lines   *nativeform.Lines // plain mode's one reader of In
}

// Ask implements [mcpclient.NativeAsker].
func (a *FormAsker) Ask(ctx context.Context, req *mcpclient.NativeRequest) (*mcp.ElicitResult, error) {
	a.waiting.Add(1)
	defer a.waiting.Add(-1)
	// One form at a time: wait for the terminal, or for the request to end.
	a.once.Do(func() { a.turn = make(chan struct{}, 1) })
	select {
	case a.turn <- struct{}{}:
		defer func() { <-a.turn }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	pending := int(a.waiting.Load())
	fr := FormRequest(req)
	fr.Position, fr.Total = 1, pending
	var res nativeform.Result
	var err error
	if a.Plain {
		if a.lines == nil {
			a.lines = nativeform.NewLines(a.In)
		}
		res, err = nativeform.AskPlain(ctx, fr, nativeform.Options{Timeout: a.Timeout}, a.lines, a.Out)
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

// FormRequest frames a native request for the form: the server's identity
// and connection, its message, and why the app did not render it.
func FormRequest(req *mcpclient.NativeRequest) nativeform.Request {
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
	}
	return fr
}

// RunForm shows one form on the terminal until it settles or ctx ends.
func RunForm(ctx context.Context, req nativeform.Request, opts nativeform.Options, in io.Reader, out io.Writer) (nativeform.Result, error) {
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
