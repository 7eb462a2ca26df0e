package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callOptions are `mcpeek call`'s.
type callOptions struct {
	conn          connFlags
	argsJSON      string
	answersPath   string
	onElicit      string
	onSample      string
	subscribe     listFlag
	updates       int
	openLinks     bool
	task          bool
	elicitLog     string
	interactive   bool
	plain         bool
	elicitTimeout time.Duration

	// Set by parse.
	tool     string
	toolArgs json.RawMessage
	policy   mcpclient.Policy
	answers  []mcpclient.Answer
}

func newCallOptions(fs *flagSet) options {
	o := &callOptions{}
	o.conn.register(fs, true)
	o.conn.registerRecord(fs)
	fs.StringVar(&o.argsJSON, "args", "", "tool arguments as a JSON object")
	fs.StringVar(&o.answersPath, "answers", "", "answer elicitations and sampling requests from this JSON `FILE`")
	fs.StringVar(&o.onElicit, "on-elicit", "cancel", "answer unmatched elicitations: cancel, decline or accept-defaults")
	fs.StringVar(&o.onSample, "on-sample", "reject", "answer sampling requests no answers-file entry matches: reject (the only policy: a reply must be written)")
	fs.Var(&o.subscribe, "subscribe", "subscribe to this resource `URI` before calling; its updates are shown on stderr (repeatable)")
	fs.BoolVar(&o.task, "task", false, "call the tool as a task (2025-11-25), as tools that require it always are")
	fs.BoolVar(&o.openLinks, "open-links", false, "with --app-host: open the links a tool's app asks to open (without it they are printed, not opened)")
	fs.IntVar(&o.updates, "updates", 0, "with --subscribe: after the call, wait for this many resource updates (within --timeout)")
	fs.StringVar(&o.elicitLog, "elicit-log", "", "write one JSON record per server request (elicitation, sampling, roots) to `FILE`")
	fs.BoolVar(&o.conn.progress, "progress", false, "print the call's progress on stderr, a line per update, even when stderr is not a terminal (on a terminal it is shown on one line)")
	fs.BoolVar(&o.interactive, "interactive", false, "answer elicitations in a form on the terminal (drawn on stderr; the result still goes to stdout)")
	fs.BoolVar(&o.plain, "plain", os.Getenv("TERM") == "dumb", "with --interactive: ask field by field with line prompts (always so when standard input is not a terminal)")
	fs.DurationVar(&o.elicitTimeout, "elicit-timeout", 2*time.Minute, "with --interactive: cancel a form nobody answers within this time (0: never)")
	return o
}

func (o *callOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("call: name the tool to call")
	}
	o.tool = rest[0]
	// Flags may also follow the tool name.
	if rest, err = fs.parse(rest[1:]); err != nil {
		return err
	}
	if err := o.parseAnswering(); err != nil {
		return err
	}
	o.conn.stdinTaken = o.interactive
	if err := o.conn.checkRecord(); err != nil {
		return err
	}
	return o.conn.parseTarget(rest)
}

// parseAnswering reads --args and how elicitations are to be answered.
func (o *callOptions) parseAnswering() error {
	if o.argsJSON != "" {
		var obj map[string]any
		if err := json.Unmarshal([]byte(o.argsJSON), &obj); err != nil || obj == nil {
			return usagef("--args must be a JSON object: %s", jsonProblem(err))
		}
		o.toolArgs = json.RawMessage(o.argsJSON)
	}
	var err error
	if o.policy, err = mcpclient.ParsePolicy(o.onElicit); err != nil {
		return usagef("%v", err)
	}
	if o.updates < 0 || o.updates > 0 && len(o.subscribe) == 0 {
		return usagef("--updates counts the updates of --subscribe resources: give --subscribe, and a count of 0 or more")
	}
	if o.onSample != "reject" {
		return usagef("unknown --on-sample policy %q (want reject)", o.onSample)
	}
	if o.answersPath != "" {
		if o.answers, err = mcpclient.LoadAnswers(o.answersPath); err != nil {
			return usagef("%v", err)
		}
	}
	if o.interactive && (o.answersPath != "" || o.onElicit != "cancel") {
		return usagef("call: --interactive answers in the terminal; it does not combine with --answers or --on-elicit")
	}
	return nil
}

func jsonProblem(err error) string {
	if err == nil {
		return "got null"
	}
	return err.Error()
}

func (o *callOptions) run(ctx context.Context, s streams) error {
	ctx, interrupt := context.WithCancelCause(ctx)
	defer interrupt(nil)
	headless := &mcpclient.HeadlessAsker{Policy: o.policy, Answers: o.answers, Stderr: s.errOut}
	var asker mcpclient.NativeAsker = headless
	var forms *tui.FormAsker
	if o.interactive {
		forms = &tui.FormAsker{
			// A form needs a terminal to read keys from: answers piped in
			// are read as the plain prompts' lines.
			In: s.in, Out: s.term, Log: s.errOut, Plain: o.plain || !s.isStdinTTY(), Timeout: o.elicitTimeout, Secrets: s.secrets,
			Interrupt: func() { interrupt(errInterrupted) },
		}
		asker = forms
	}
	// Approved first: a refused run leaves an old log as it was.
	if err := o.conn.approve(ctx, s.errOut, s.terminal()); err != nil {
		return err
	}
	records, closeLog, err := openRecords(o.elicitLog, s.secrets)
	if err != nil {
		return err
	}
	defer closeLog()
	return o.conn.headless(ctx, s, asker, records, func(ctx context.Context, conn *mcpclient.Conn) error {
		if forms != nil && o.conn.AppHost {
			// While a question is answered in the browser, the terminal
			// says so, and n answers it here instead.
			watchCtx, stopWatch := context.WithCancel(ctx)
			watched := make(chan struct{})
			go func() { defer close(watched); forms.WatchApps(watchCtx, conn) }()
			defer func() { stopWatch(); <-watched }()
		}
		for _, uri := range o.subscribe {
			if err := conn.Subscribe(ctx, uri); err != nil {
				return fmt.Errorf("subscribe %s: %w", uri, err)
			}
		}
		app := o.openApp(ctx, conn, s)
		res, err := o.callRetrying(ctx, conn, s) // urlrequired.go
		o.conn.events.Settle()
		if conn.NeedsBackChannel(err, res) {
			if err != nil {
				err = fmt.Errorf("%w (%s)", err, backChannelHint)
			} else {
				fmt.Fprintln(s.errOut, "mcpeek: "+backChannelHint)
			}
		}
		if app != nil {
			defer app.Close()
			if err != nil {
				app.Cancelled(err.Error())
			} else {
				app.Result(res)
			}
		}
		if errors.Is(context.Cause(ctx), errInterrupted) {
			return errInterrupted
		}
		if err != nil {
			return err
		}
		if err := writeJSON(s.out, res); err != nil {
			return err
		}
		if err := o.conn.waitUpdates(ctx, o.updates); err != nil {
			return err
		}
		if err := o.awaitApp(ctx, app, s); err != nil {
			return err
		}
		switch {
		case headless.Rejected() > 0:
			return errAnswersRejected
		case res.IsError:
			return errToolError
		}
		return nil
	})
}

// backChannelHint is what to do about a server that asks outside a
// tool's input rounds in the 2026-07-28 era.
const backChannelHint = "the server asks mcpeek outside the tool's input rounds, which protocol 2026-07-28 has no channel for: try --protocol legacy"

// callTool calls the tool: as a task when it requires one (or --task, or
// a 2026-07-28 server says it runs only as one), with its status on
// stderr, else as a plain call with progress.
func (o *callOptions) callTool(ctx context.Context, conn *mcpclient.Conn, s streams) (*mcp.CallToolResult, error) {
	if o.task {
		// Asked of a tool that cannot run as one, a 2025-11-25 server would
		// answer with something that is not a task.
		if support, err := conn.TaskSupport(ctx, o.tool); err == nil && support == "" && conn.ProtocolVersion() < mcpclient.ProtocolModern {
			return nil, usagef("--task: %s does not run as a task (its execution.taskSupport is forbidden or not given)", o.tool)
		}
	}
	last := ""
	return conn.CallOrTask(ctx, o.tool, o.toolArgs, o.task, nil, func(st mcpclient.TaskStatus) {
		line := fmt.Sprintf("mcpeek: task %s %s", st.TaskID, st.Status)
		if st.StatusMessage != "" {
			line += ": " + st.StatusMessage
		}
		if line != last {
			last = line
			fmt.Fprintln(s.errOut, textclean.OneLine(line))
		}
	})
}

// openApp opens the tool's MCP App when there is an app host and the tool
// names one (docs/app-host.md, "Tool apps"); nil otherwise, or when it
// cannot be opened, which a line on stderr says.
func (o *callOptions) openApp(ctx context.Context, conn *mcpclient.Conn, s streams) mcpclient.ToolAppSession {
	if o.conn.host == nil {
		return nil
	}
	tool, err := conn.Tool(ctx, o.tool)
	if err != nil || tool == nil || mcpclient.ToolAppURI(tool) == "" {
		return nil
	}
	say := func(format string, args ...any) {
		fmt.Fprintln(s.errOut, textclean.OneLine(fmt.Sprintf("mcpeek: "+format, args...)))
	}
	app, err := conn.OpenToolApp(ctx, o.conn.host, tool, o.toolArgs, mcpclient.ToolAppOptions{
		OpenLink: func(_ context.Context, link string) error {
			if !o.openLinks {
				say("the app asks to open %s (not opened: run with --open-links to open such links)", link)
				return errors.New("not opened")
			}
			say("the app opens %s", link)
			return apphost.WebOnly(apphost.SystemBrowser(o.conn.NoBrowser))(link)
		},
		Message: func(msg mcpclient.AppMessage) { say("the app sent %s: %s", msg.Kind, clipJSON(msg.Params, 300)) },
	})
	if err != nil {
		say("the tool's app is not opened: %v", err)
		return nil
	}
	return app
}

// awaitApp keeps serving the tool's app, once the result is printed,
// until its tab closes, it asks to close, or the run ends (Ctrl+C,
// --timeout).
func (o *callOptions) awaitApp(ctx context.Context, app mcpclient.ToolAppSession, s streams) error {
	if app == nil {
		return nil
	}
	fmt.Fprintln(s.errOut, "mcpeek: serving the tool's app until its tab closes (Ctrl+C stops)")
	select {
	case <-app.Done():
		if err := app.Err(); err != nil && !errors.Is(err, mcpclient.ErrAppClosed) {
			return fmt.Errorf("the tool's app: %w", err)
		}
		return nil
	case <-ctx.Done():
		app.Close()
		<-app.Done()
		if errors.Is(context.Cause(ctx), errInterrupted) {
			return errInterrupted
		}
		return context.Cause(ctx)
	}
}

// clipJSON is raw JSON on one line, at most n bytes.
func clipJSON(raw json.RawMessage, n int) string {
	return textclean.Cut(strings.Join(strings.Fields(string(raw)), " "), n)
}

// openRecords returns the recorder of a call's elicitations, writing to
// --elicit-log when given, with the run's secrets redacted as in the wire
// log, and what closes the file.
func openRecords(path string, secrets *mcpclient.Secrets) (*mcpclient.Recorder, func(), error) {
	if path == "" {
		return mcpclient.NewRecorder(nil), func() {}, nil
	}
	f, err := createPrivate(path)
	if err != nil {
		return nil, nil, usagef("--elicit-log: %v", err)
	}
	return mcpclient.NewRecorder(secrets.Writer(f)), func() { _ = f.Close() }, nil
}
