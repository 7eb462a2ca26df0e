//lint:file-ignore SA1019 sampling and roots are deprecated from 2026-07-28 on, but a task's input requests may still be of them, and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The 2026-07-28 tasks extension (docs/architecture.md, "Tasks"). A client
// declares it in each request's _meta; a server that offers it may answer
// such a tools/call with a task instead of a result, which the client
// follows with tasks/get, feeds with tasks/update when it needs input, and
// stops with tasks/cancel. go-sdk neither declares nor speaks it, so mcpeek
// declares it only on the requests of its side channel: the SDK's own
// calls never get a task back (a server must not return one to a request
// that did not declare the extension).

// TasksExtension names the 2026-07-28 tasks extension.
const TasksExtension = "io.modelcontextprotocol/tasks"

// codeMissingCapability is the error a server answers a request with when
// it needs a capability the request did not declare (the tasks extension,
// for a tool that runs only as a task).
const codeMissingCapability = -32021

// OffersTasksExtension reports whether the server offers the 2026-07-28
// tasks extension.
func (c *Conn) OffersTasksExtension() bool {
	if c.ProtocolVersion() < ProtocolModern {
		return false
	}
	_, ok := c.ServerCapabilities().Extensions[TasksExtension]
	return ok
}

// NeedsTasksExtension reports whether a call's error says the tool runs
// only as a task of the 2026-07-28 tasks extension.
func NeedsTasksExtension(err error) bool {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != codeMissingCapability {
		return false
	}
	var data struct {
		RequiredCapabilities struct {
			Extensions map[string]json.RawMessage `json:"extensions"`
		} `json:"requiredCapabilities"`
	}
	_ = json.Unmarshal(rpcErr.Data, &data)
	_, ok := data.RequiredCapabilities.Extensions[TasksExtension]
	return ok
}

// extMeta is the _meta of a request of the side channel in the 2026-07-28
// era: what go-sdk sends with each of its own, with the tasks extension
// declared.
func (c *Conn) extMeta() map[string]any {
	var caps map[string]any
	if err := json.Unmarshal(c.SentCapabilities(), &caps); err != nil || caps == nil {
		caps = map[string]any{}
	}
	ext, _ := caps["extensions"].(map[string]any)
	if ext == nil {
		ext = map[string]any{}
	}
	ext[TasksExtension] = map[string]any{}
	caps["extensions"] = ext
	meta := map[string]any{
		"io.modelcontextprotocol/clientCapabilities": caps,
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "mcpeek", "title": "mcpeek", "version": Version},
		"io.modelcontextprotocol/protocolVersion":    c.ProtocolVersion(),
	}
	if level := c.LogLevel(); level != "" {
		meta[mcp.MetaKeyLogLevel] = level
	}
	return meta
}

// extTask is a task as the extension's results carry it: tools/call's
// (resultType "task") and tasks/get's.
type extTask struct {
	ResultType     string                     `json:"resultType"`
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage"`
	PollIntervalMs *int64                     `json:"pollIntervalMs"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests"`
	RequestState   string                     `json:"requestState"`
	Result         json.RawMessage            `json:"result"`
	Error          *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (t *extTask) status(start time.Time, secrets *Secrets) TaskStatus {
	// The same task as the 2025-11-25 one, with its interval named apart.
	return wireTask{TaskID: t.TaskID, Status: t.Status, StatusMessage: t.StatusMessage, PollInterval: t.PollIntervalMs}.status(start, secrets)
}

// maxInputRounds bounds how often a call may ask for input before it
// becomes a task or ends.
const maxInputRounds = 16

// callTaskExt calls a tool declaring the tasks extension and follows what
// the server makes of it: a result at once, input asked before a task
// exists (answered, and the call retried with the answers), or a task.
func (c *Conn) callTaskExt(ctx context.Context, tool string, args json.RawMessage, onStatus func(TaskStatus)) (*mcp.CallToolResult, error) {
	ctx, done := c.bind(ctx)
	defer done()
	start := time.Now()
	params := map[string]any{"name": tool, "arguments": json.RawMessage(`{}`), "_meta": c.extMeta()}
	if len(args) > 0 {
		params["arguments"] = args
	}
	for range maxInputRounds {
		raw, err := c.side.call(ctx, "tools/call", params)
		if err != nil {
			return nil, fmt.Errorf("call %s as a task: %w", tool, err)
		}
		var t extTask
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("call %s as a task: %w", tool, err)
		}
		switch t.ResultType {
		case "", "complete": // the server ran it at once
			return decodeResult(raw)
		case "input_required":
			answers, err := c.answerInputs(ctx, "", t.InputRequests)
			if err != nil {
				return nil, fmt.Errorf("call %s: %w", tool, err)
			}
			params["inputResponses"] = answers
			if t.RequestState != "" {
				params["requestState"] = t.RequestState
			} else {
				delete(params, "requestState")
			}
		case "task":
			if t.TaskID == "" {
				return nil, fmt.Errorf("call %s: the server's task has no taskId", tool)
			}
			return c.followTaskExt(ctx, tool, &t, start, onStatus)
		default:
			return nil, fmt.Errorf("call %s: the server answered with the unknown resultType %q", tool, c.cut(t.ResultType, 40))
		}
	}
	return nil, fmt.Errorf("call %s: the server asked for input %d times without a result", tool, maxInputRounds)
}

// followTaskExt polls a task of the extension until it ends, answering
// each input request once (tasks/update); when ctx ends it cancels it.
func (c *Conn) followTaskExt(ctx context.Context, tool string, t *extTask, start time.Time, onStatus func(TaskStatus)) (*mcp.CallToolResult, error) {
	id := t.TaskID
	defer c.trackTask(id)()
	report := func(s TaskStatus) {
		c.notify.emit(TaskEvent{Tool: tool, TaskStatus: s})
		if onStatus != nil {
			onStatus(s)
		}
	}
	asked := inputLedger{}
	last := TaskStatus{}
	for {
		st := t.status(start, c.Secrets())
		st.TaskID = id
		if st.Status != last.Status || st.StatusMessage != last.StatusMessage {
			c.wire.Note(fmt.Sprintf("task %s of %s: %s %s", id, tool, st.Status, st.StatusMessage))
		}
		last = st
		report(st)
		switch t.Status {
		case "completed":
			if len(t.Result) == 0 {
				return nil, fmt.Errorf("call %s: task %s completed without a result", tool, id)
			}
			return decodeResult(t.Result)
		case "failed":
			msg := "no reason given"
			if t.Error != nil {
				msg = fmt.Sprintf("%s (%d)", c.cut(t.Error.Message, 500), t.Error.Code)
			}
			return nil, fmt.Errorf("call %s: task %s failed: %s", tool, id, msg)
		case "cancelled":
			return nil, fmt.Errorf("call %s: task %s was cancelled by the server", tool, id)
		case "input_required":
			if err := c.updateTask(ctx, id, t.InputRequests, asked); err != nil {
				return nil, c.endTaskExt(ctx, tool, st, report, err)
			}
		case "working":
		default:
			return nil, c.endTaskExt(ctx, tool, st, report, fmt.Errorf("the server reported the unknown status %q", c.cut(t.Status, 40)))
		}
		select {
		case <-time.After(st.PollInterval):
		case <-ctx.Done():
			return nil, c.endTaskExt(ctx, tool, st, report, ctx.Err())
		}
		raw, err := c.side.call(ctx, "tasks/get", c.taskParams(id, nil))
		if err != nil {
			return nil, c.endTaskExt(ctx, tool, st, report, fmt.Errorf("tasks/get: %w", err))
		}
		var next extTask
		if err := json.Unmarshal(raw, &next); err != nil {
			return nil, c.endTaskExt(ctx, tool, st, report, fmt.Errorf("tasks/get: %w", err))
		}
		if next.TaskID != "" && next.TaskID != id {
			return nil, c.endTaskExt(ctx, tool, st, report, fmt.Errorf("tasks/get answered for another task, %q", c.cut(next.TaskID, 60)))
		}
		t = &next
	}
}

// endTaskExt ends a task mcpeek follows no further, before it ended:
// because the call's context ended, or for a reason of mcpeek's own (an
// answer it could not give, a server it cannot follow). Either way the task
// is cancelled (tasks/cancel), so that it does not run on at the server,
// and the error says whether the server confirmed it.
func (c *Conn) endTaskExt(ctx context.Context, tool string, st TaskStatus, report func(TaskStatus), why error) error {
	confirmed := c.cancelTask(st.TaskID)
	st.Status = "cancelled"
	report(st)
	cancelled := "mcpeek cancelled it"
	if confirmed != nil {
		cancelled = "mcpeek could not cancel it: " + confirmed.Error()
	}
	if ctx.Err() != nil {
		return fmt.Errorf("call %s: task %s cancelled (%s): %w", tool, st.TaskID, cancelled, context.Cause(ctx))
	}
	return fmt.Errorf("call %s: task %s: %w (%s)", tool, st.TaskID, why, cancelled)
}

// taskParams are a tasks/* request's params.
func (c *Conn) taskParams(id string, extra map[string]any) map[string]any {
	p := map[string]any{"taskId": id, "_meta": c.extMeta()}
	maps.Copy(p, extra)
	return p
}

// inputLedger is what a task asked, by key: each key is answered once,
// and a key asked again must ask the same.
type inputLedger map[string]string

// maxTaskInputs bounds the input requests one task may ask.
const maxTaskInputs = 256

// updateTask answers the input requests not answered yet, and sends the
// answers (tasks/update). A key reused for another request, or a task
// asking without end, is an error.
func (c *Conn) updateTask(ctx context.Context, id string, requests map[string]json.RawMessage, asked inputLedger) error {
	fresh := map[string]json.RawMessage{}
	for k, v := range requests {
		before, seen := asked[k]
		switch {
		case !seen:
			fresh[k] = v
		case before != compactRaw(v):
			return fmt.Errorf("the server reused the input key %q for another request", c.cut(k, 40))
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	if len(asked)+len(fresh) > maxTaskInputs {
		return fmt.Errorf("the task asked more than %d questions", maxTaskInputs)
	}
	answers, err := c.answerInputs(ctx, id, fresh)
	if err != nil {
		return err
	}
	for k, v := range fresh {
		asked[k] = compactRaw(v)
	}
	if _, err := c.side.call(ctx, "tasks/update", c.taskParams(id, map[string]any{"inputResponses": answers})); err != nil {
		return fmt.Errorf("tasks/update: %w", err)
	}
	return nil
}

// compactRaw is raw JSON without insignificant space, to compare requests.
func compactRaw(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// maxInputRequests bounds the input requests answered in one round.
const maxInputRequests = 32

// answerInputs answers input requests ({method, params} by key) as the
// connection answers the same requests made directly: elicitations and
// sampling through the router, roots from the roots offered. Those of a
// task are recorded with its id.
func (c *Conn) answerInputs(ctx context.Context, taskID string, requests map[string]json.RawMessage) (map[string]any, error) {
	if len(requests) > maxInputRequests {
		return nil, fmt.Errorf("the server asked %d questions at once (mcpeek answers at most %d)", len(requests), maxInputRequests)
	}
	out := map[string]any{}
	for _, key := range slices.Sorted(maps.Keys(requests)) {
		var req struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(requests[key], &req); err != nil {
			return nil, fmt.Errorf("input request %q: %w", c.cut(key, 40), err)
		}
		res, err := c.answerInput(ctx, taskID, req.Method, req.Params)
		if err != nil {
			return nil, fmt.Errorf("input request %q (%s): %w", c.cut(key, 40), c.cut(req.Method, 40), err)
		}
		out[key] = res
	}
	return out, nil
}

// answerInput answers one input request.
func (c *Conn) answerInput(ctx context.Context, taskID, method string, raw json.RawMessage) (any, error) {
	withTask := func(meta mcp.Meta) mcp.Meta {
		if taskID == "" {
			return meta
		}
		if meta == nil {
			meta = mcp.Meta{}
		}
		meta[RelatedTaskKey] = map[string]any{"taskId": taskID}
		return meta
	}
	switch method {
	case "elicitation/create":
		var p mcp.ElicitParams
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
		p.Meta = withTask(p.Meta)
		return c.router.handle(ctx, &mcp.ElicitRequest{Params: &p})
	case "sampling/createMessage":
		if c.cfg.Sampler == nil {
			return nil, errors.New("mcpeek answers no sampling requests on this connection")
		}
		var p mcp.CreateMessageWithToolsParams
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
		p.Meta = withTask(p.Meta)
		return c.router.sample(ctx, &mcp.CreateMessageWithToolsRequest{Params: &p})
	case "roots/list":
		roots := c.Roots()
		if roots == nil {
			roots = []*mcp.Root{}
		}
		return &mcp.ListRootsResult{Roots: roots}, nil
	}
	return nil, fmt.Errorf("mcpeek does not answer %s", c.cut(method, 60))
}
