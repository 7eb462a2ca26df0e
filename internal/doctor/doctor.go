// Package doctor is the connection doctor's engine: it checks each step of
// reaching a server — the name, the port, TLS, the HTTP answer and
// authorization of a URL server, the command of a stdio one, then the
// MCP handshake and lists — and returns a report the command prints
// (docs/architecture.md, "The connection doctor").
package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/mcpclient/oauth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Step statuses.
const (
	StatusOK   = "ok"
	StatusWarn = "warn" // passed, with something to look at
	StatusFail = "fail"
	StatusSkip = "skip" // not applicable to this server
)

// Step is one step of the report.
type Step struct {
	Step   string `json:"step"`
	Status string `json:"status"`
	Ms     int64  `json:"ms"`
	Detail string `json:"detail"`
	Hint   string `json:"hint,omitempty"`
}

// Report is the whole report (--json).
type Report struct {
	Target    string                `json:"target"`
	Transport string                `json:"transport"`
	Source    *session.SourceReport `json:"source,omitempty"`
	OK        bool                  `json:"ok"`
	Steps     []Step                `json:"steps"`
}

// Options are what the doctor checks and how it reports.
type Options struct {
	// Session is the connection to check, as every command makes it.
	Session session.Config
	// Source is where the server came from (nil: the command line).
	Source *session.SourceReport
	// Secrets are the run's, redacted from what the report quotes.
	Secrets *mcpclient.Secrets
	// Show prints a finished step (nil: nothing until the end).
	Show func(Step)
}

// outcome is what a step found.
type outcome struct {
	status, detail, hint string
}

func passed(format string, args ...any) outcome {
	return outcome{status: StatusOK, detail: fmt.Sprintf(format, args...)}
}

func failed(detail, hint string) outcome {
	return outcome{status: StatusFail, detail: detail, hint: hint}
}

func warned(detail, hint string) outcome {
	return outcome{status: StatusWarn, detail: detail, hint: hint}
}

func skipped(detail string) outcome { return outcome{status: StatusSkip, detail: detail} }

// doctor runs the steps for one target and reports each as it ends.
type doctor struct {
	cfg     session.Config
	secrets *mcpclient.Secrets
	report  Report
	// show prints a finished step (nil: nothing until the end, --json).
	show func(Step)
	// What one step learns for the next.
	url urlState
}

// step runs one step, unless one before it failed, and reports whether
// the run goes on.
func (d *doctor) step(name string, f func() outcome) bool {
	if !d.report.OK {
		return false
	}
	start := time.Now()
	o := f()
	s := Step{Step: name, Status: o.status, Ms: time.Since(start).Milliseconds(), Detail: textclean.OneLine(o.detail), Hint: textclean.OneLine(o.hint)}
	d.report.Steps = append(d.report.Steps, s)
	if d.show != nil {
		d.show(s)
	}
	if o.status == StatusFail {
		d.report.OK = false
	}
	return d.report.OK
}

// Run checks each step of reaching the server, stopping at the first
// that fails (docs/architecture.md, "The connection doctor"), within
// ctx, and returns the report.
func Run(ctx context.Context, opts Options) Report {
	if opts.Secrets == nil {
		opts.Secrets = &mcpclient.Secrets{}
	}
	// The steps before the connection send the target's credentials too.
	opts.Session.LearnSecrets(opts.Secrets)
	t := opts.Session.Target
	d := &doctor{cfg: opts.Session, secrets: opts.Secrets, show: opts.Show,
		report: Report{Target: t.String(), Transport: transportName(t), Source: opts.Source, OK: true}}
	switch t.Kind {
	case mcpclient.TargetHTTP:
		d.urlSteps(ctx)
	case mcpclient.TargetStdio:
		d.stdioSteps(ctx)
	}
	d.mcpSteps(ctx)
	return d.report
}

// transportName names how the target is reached.
func transportName(t mcpclient.Target) string {
	switch {
	case t.Kind == mcpclient.TargetStdio:
		return "stdio"
	case t.Kind == mcpclient.TargetHTTP && t.SSE:
		return "sse"
	case t.Kind == mcpclient.TargetHTTP:
		return "http"
	}
	return "embedded"
}

// mcpSteps connect as every command does, and check what the server says
// it offers and that it lists it.
func (d *doctor) mcpSteps(ctx context.Context) {
	var conn *mcpclient.Conn
	var e *session.Endpoint
	defer func() {
		if conn != nil {
			_ = conn.Close()
		}
		if e != nil {
			e.Close()
		}
	}()
	d.step("negotiate", func() outcome {
		var err error
		if e, err = session.Start(d.cfg, session.Hooks{Secrets: d.secrets, Notify: func(string) {}}); err != nil {
			return failed(err.Error(), "")
		}
		e.ShowAuth = func(string) {}
		conn, err = e.Connect(ctx, &mcpclient.HeadlessAsker{Stderr: io.Discard}, nil)
		exchange := handshake(e.Wire)
		if err != nil {
			return failed(joinDetail(err.Error(), exchange), connectHint(err, d.cfg.Target))
		}
		era := "legacy"
		if conn.ProtocolVersion() >= mcpclient.ProtocolModern {
			era = "modern"
		}
		info := conn.ServerInfo()
		return passed("%s %s speaks %s (%s era): %s", info.Name, info.Version, conn.ProtocolVersion(), era, exchange)
	})
	d.step("capabilities", func() outcome { return capabilitiesOutcome(conn.ServerCapabilities()) })
	lists := []struct {
		what    string
		offered func(*mcp.ServerCapabilities) bool
	}{
		{"tools", func(c *mcp.ServerCapabilities) bool { return c.Tools != nil }},
		{"resources", func(c *mcp.ServerCapabilities) bool { return c.Resources != nil }},
		{"prompts", func(c *mcp.ServerCapabilities) bool { return c.Prompts != nil }},
	}
	for _, l := range lists {
		d.step(l.what+"/list", func() outcome {
			if !l.offered(conn.ServerCapabilities()) {
				return skipped("not offered")
			}
			got, err := conn.List(ctx, l.what)
			if err != nil {
				return failed(err.Error(), fmt.Sprintf("the server offers %s but cannot list them: see its log, or run with --wire-log FILE", l.what))
			}
			return passed("%s", countListed(got))
		})
	}
}

func joinDetail(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}

// countListed words what a list returned: "3 tools", "2 resources and 1
// template".
func countListed(got map[string]any) string {
	n := func(key string) int {
		b, _ := json.Marshal(got[key])
		var items []json.RawMessage
		_ = json.Unmarshal(b, &items)
		return len(items)
	}
	switch {
	case got["tools"] != nil:
		return counted(n("tools"), "tool")
	case got["prompts"] != nil:
		return counted(n("prompts"), "prompt")
	}
	text := counted(n("resources"), "resource")
	if t := n("resourceTemplates"); t > 0 {
		text += " and " + counted(t, "template")
	}
	return text
}

// counted is "1 tool", "2 tools".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// capabilitiesOutcome words what the server offers.
func capabilitiesOutcome(c *mcp.ServerCapabilities) outcome {
	var offered []string
	add := func(on bool, name string, flags ...string) {
		if !on {
			return
		}
		var set []string
		for i := 0; i+1 < len(flags); i += 2 {
			if flags[i+1] == "true" {
				set = append(set, flags[i])
			}
		}
		if len(set) > 0 {
			name += " (" + strings.Join(set, ", ") + ")"
		}
		offered = append(offered, name)
	}
	add(c.Tools != nil, "tools", "listChanged", fmt.Sprint(c.Tools != nil && c.Tools.ListChanged))
	add(c.Resources != nil, "resources", "subscribe", fmt.Sprint(c.Resources != nil && c.Resources.Subscribe),
		"listChanged", fmt.Sprint(c.Resources != nil && c.Resources.ListChanged))
	add(c.Prompts != nil, "prompts", "listChanged", fmt.Sprint(c.Prompts != nil && c.Prompts.ListChanged))
	//lint:ignore SA1019 servers still offer logging, deprecated from 2026-07-28 on, and the report says so
	add(c.Logging != nil, "logging")
	add(c.Completions != nil, "completions")
	for _, name := range slices.Sorted(maps.Keys(c.Extensions)) {
		offered = append(offered, "extension "+name)
	}
	if c.Tools == nil && c.Resources == nil && c.Prompts == nil {
		return warned(joinDetail("offers no tools, resources or prompts", strings.Join(offered, ", ")),
			"a server advertises each feature it serves in its capabilities")
	}
	return passed("%s", strings.Join(offered, ", "))
}

// handshake words the negotiation the wire log saw: what server/discover
// and initialize were answered.
func handshake(wire *mcpclient.WireLog) string {
	sent := map[string]string{} // request id → method
	var steps []string
	for _, e := range wire.Entries() {
		switch {
		case e.Dir == mcpclient.DirSend && (e.Method == mcpclient.MethodDiscover || e.Method == mcpclient.MethodInitialize):
			sent[string(e.ID)] = e.Method
		case e.Dir == mcpclient.DirRecv && e.Method == "" && sent[string(e.ID)] != "":
			steps = append(steps, sent[string(e.ID)]+" → "+answerWord(e.Message))
			delete(sent, string(e.ID))
		}
	}
	for _, method := range sent {
		steps = append(steps, method+" → no answer")
	}
	return strings.Join(steps, ", ")
}

// answerWord words the answer to a handshake request: the revision it
// names, or its error.
func answerWord(msg json.RawMessage) string {
	var m struct {
		Result struct {
			ProtocolVersion   string   `json:"protocolVersion"`
			SupportedVersions []string `json:"supportedVersions"`
		} `json:"result"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return "?"
	}
	switch {
	case m.Error != nil:
		return fmt.Sprintf("error %d (%s)", m.Error.Code, m.Error.Message)
	case m.Result.ProtocolVersion != "":
		return m.Result.ProtocolVersion
	case len(m.Result.SupportedVersions) > 0:
		return "supports " + strings.Join(m.Result.SupportedVersions, ", ")
	}
	return "an answer"
}

// connectHint says what to do about a failed connection.
func connectHint(err error, target mcpclient.Target) string {
	msg := err.Error()
	switch {
	case errors.Is(err, oauth.ErrNoStoredToken):
		return "log in first: mcpeek auth login " + target.URL
	case strings.Contains(msg, "does not speak protocol revision"):
		return "leave out --protocol, or ask for a revision the server speaks"
	case strings.Contains(msg, "--connect-timeout"):
		return "the server did not finish the handshake in time: is it stuck, or slow to start (raise --connect-timeout)?"
	case target.Kind == mcpclient.TargetStdio:
		return "the server's stderr is in the wire log: run again with --wire-log FILE"
	}
	return "run again with --wire-log FILE to see the exchange"
}
