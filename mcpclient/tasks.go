package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tasks (2025-11-25, experimental): a tool that requires task augmentation
// answers tools/call with a task at once; the client follows its status
// with tasks/get and fetches the result with tasks/result, which also
// delivers the requests the task queued for the client (an elicitation
// with _meta["io.modelcontextprotocol/related-task"]), answered through
// the router as any other. go-sdk v1.8.0 has no task methods: they go over
// the side channel (side.go). The 2026-07-28 tasks extension is in
// tasksext.go.

// TaskStatus is what the client knows of a task.
type TaskStatus struct {
	TaskID        string
	Status        string // working, input_required, completed, failed, cancelled
	StatusMessage string
	PollInterval  time.Duration
	Elapsed       time.Duration
}

// TaskEvent is a task's new status, for [Config.OnEvent]: every task
// CallTask follows reports each status it learns.
type TaskEvent struct {
	Tool string
	TaskStatus
}

func (TaskEvent) event() {}

// Terminal reports whether the task has ended.
func (s TaskStatus) Terminal() bool {
	return s.Status == "completed" || s.Status == "failed" || s.Status == "cancelled"
}

// Bounds on a server's pollInterval.
const (
	minPoll     = 100 * time.Millisecond
	maxPoll     = 5 * time.Second
	defaultPoll = time.Second
	// taskTTL is the lifetime mcpeek asks for its tasks.
	taskTTL = 5 * time.Minute
)

// RelatedTaskKey is the _meta key naming the task a request belongs to.
const RelatedTaskKey = "io.modelcontextprotocol/related-task"

type wireTask struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage"`
	PollInterval  *int64 `json:"pollInterval"`
}

// status is the task's status, its message redacted of the secrets before
// it is cut.
func (w wireTask) status(start time.Time, secrets *Secrets) TaskStatus {
	poll := defaultPoll
	if w.PollInterval != nil {
		poll = min(max(time.Duration(*w.PollInterval)*time.Millisecond, minPoll), maxPoll)
	}
	return TaskStatus{TaskID: w.TaskID, Status: w.Status, StatusMessage: secrets.cut(w.StatusMessage, 300), PollInterval: poll, Elapsed: time.Since(start)}
}

// TaskSupport is a tool's execution.taskSupport as the server lists it:
// "required", "optional", or "" (forbidden, or not said). go-sdk drops the
// member, so the listing is read over the side channel, once until the
// server says its tools changed.
func (c *Conn) TaskSupport(ctx context.Context, tool string) (string, error) {
	if c.ProtocolVersion() >= ProtocolModern {
		return "", nil
	}
	c.toolsMu.Lock()
	known, fresh, gen := c.taskSupport[tool], c.taskSupport != nil, c.toolsGen
	c.toolsMu.Unlock()
	if fresh {
		return known, nil // listed since the tools last changed
	}
	all, err := c.listTaskSupport(ctx)
	if err != nil {
		return "", err
	}
	c.toolsMu.Lock()
	if c.toolsGen == gen { // not changed while listing: the listing holds
		c.taskSupport = all
	}
	c.toolsMu.Unlock()
	return all[tool], nil
}

// listTaskSupport lists the tools that may or must run as tasks, every
// page of them.
func (c *Conn) listTaskSupport(ctx context.Context) (map[string]string, error) {
	ctx, done := c.bind(ctx)
	defer done()
	all := map[string]string{}
	cursor := ""
	for range 100 { // pages
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, err := c.side.call(ctx, "tools/list", params)
		if err != nil {
			return nil, err
		}
		var page struct {
			Tools []struct {
				Name      string `json:"name"`
				Execution struct {
					TaskSupport string `json:"taskSupport"`
				} `json:"execution"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		for _, t := range page.Tools {
			if s := t.Execution.TaskSupport; s == "required" || s == "optional" {
				all[t.Name] = s
			}
		}
		if page.NextCursor == "" {
			return all, nil
		}
		cursor = page.NextCursor
	}
	return nil, errors.New("tools/list: more than 100 pages")
}

// CallOrTask calls a tool: as a task when asTask, when its listing says it
// requires one (2025-11-25), or when a 2026-07-28 server answers the plain
// call that it runs only as a task of the tasks extension; else as a call
// whose progress reaches progress. onStatus hears a task's statuses.
func (c *Conn) CallOrTask(ctx context.Context, tool string, args json.RawMessage, asTask bool, progress func(ProgressEvent), onStatus func(TaskStatus)) (*mcp.CallToolResult, error) {
	if !asTask {
		support, err := c.TaskSupport(ctx, tool)
		if err != nil {
			c.wire.Note("reading the tool's task support: " + err.Error())
		}
		asTask = support == "required"
	}
	if asTask {
		return c.CallTask(ctx, tool, args, onStatus)
	}
	res, err := c.CallWithProgress(ctx, tool, args, progress)
	if err != nil && NeedsTasksExtension(err) && c.OffersTasksExtension() {
		c.wire.Note("the server runs " + tool + " only as a task: calling it as one")
		return c.CallTask(ctx, tool, args, onStatus)
	}
	return res, err
}

// ErrTasksUnsupported is the answer to a task call in the 2026-07-28 era
// when the server does not offer the tasks extension.
var ErrTasksUnsupported = errors.New("the server does not offer the 2026-07-28 tasks extension (" + TasksExtension + "), so no call runs as a task in this era")

// CallTask calls a tool as a task and follows it to its result, which it
// returns as a call would. onStatus (may be nil) hears each status. When
// ctx ends the task is cancelled (tasks/cancel).
//
// In the 2026-07-28 era it speaks the tasks extension when the server
// offers it (tasksext.go), where the server decides whether the call
// becomes a task.
func (c *Conn) CallTask(ctx context.Context, tool string, args json.RawMessage, onStatus func(TaskStatus)) (*mcp.CallToolResult, error) {
	if c.ProtocolVersion() >= ProtocolModern {
		if !c.OffersTasksExtension() {
			return nil, ErrTasksUnsupported
		}
		return c.callTaskExt(ctx, tool, args, onStatus)
	}
	ctx, done := c.bind(ctx)
	defer done()
	start := time.Now()
	params := map[string]any{"name": tool, "task": map[string]any{"ttl": taskTTL.Milliseconds()}}
	if len(args) > 0 {
		params["arguments"] = args
	}
	raw, err := c.side.call(ctx, "tools/call", params)
	if err != nil {
		return nil, fmt.Errorf("call %s as a task: %w", tool, err)
	}
	var created struct {
		Task *wireTask `json:"task"`
	}
	if err := json.Unmarshal(raw, &created); err != nil || created.Task == nil || created.Task.TaskID == "" {
		// The server ran it at once (taskSupport optional): a plain result.
		return decodeResult(raw)
	}
	st := created.Task.status(start, c.Secrets())
	defer c.trackTask(st.TaskID)()
	c.wire.Note(fmt.Sprintf("task %s of %s: %s", st.TaskID, tool, st.Status))
	res, err := c.followTask(ctx, tool, st, start, onStatus)
	if err == nil {
		return res, nil
	}
	_ = c.cancelTask(st.TaskID) // mcpeek follows it no further: it must not run on
	if ctx.Err() != nil {
		st.Status, st.Elapsed = "cancelled", time.Since(start)
		c.notify.emit(TaskEvent{Tool: tool, TaskStatus: st})
		return nil, fmt.Errorf("call %s: task %s cancelled: %w", tool, st.TaskID, context.Cause(ctx))
	}
	return nil, fmt.Errorf("call %s: task %s: %w", tool, st.TaskID, err)
}

// followTask polls the task until it needs input or ends, then fetches
// its result (tasks/result delivers what it queued meanwhile).
func (c *Conn) followTask(ctx context.Context, tool string, st TaskStatus, start time.Time, onStatus func(TaskStatus)) (*mcp.CallToolResult, error) {
	report := func(s TaskStatus) {
		c.notify.emit(TaskEvent{Tool: tool, TaskStatus: s})
		if onStatus != nil {
			onStatus(s)
		}
	}
	report(st)
	for st.Status == "working" {
		select {
		case <-time.After(st.PollInterval):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		raw, err := c.side.call(ctx, "tasks/get", map[string]any{"taskId": st.TaskID})
		if err != nil {
			return nil, fmt.Errorf("tasks/get: %w", err)
		}
		var w wireTask
		if err := json.Unmarshal(raw, &w); err != nil {
			return nil, fmt.Errorf("tasks/get: %w", err)
		}
		if w.TaskID == "" {
			w.TaskID = st.TaskID
		}
		next := w.status(start, c.Secrets())
		if next.Status != st.Status || next.StatusMessage != st.StatusMessage {
			c.wire.Note(fmt.Sprintf("task %s: %s %s", next.TaskID, next.Status, next.StatusMessage))
		}
		st = next
		report(st)
	}
	switch st.Status {
	case "input_required", "completed", "failed", "cancelled":
	default:
		return nil, fmt.Errorf("the server reported the unknown status %q", c.cut(st.Status, 40))
	}
	raw, err := c.side.call(ctx, "tasks/result", map[string]any{"taskId": st.TaskID})
	if err != nil {
		return nil, fmt.Errorf("tasks/result: %w", err)
	}
	if !st.Terminal() { // it waited for input; tasks/result returned once it ended
		st.Status = "completed"
	}
	st.Elapsed = time.Since(start)
	report(st)
	return decodeResult(raw)
}

// ListTasks lists the server's tasks (tasks/list), each with its status as
// the server reports it (its message redacted and cut, as every task
// status is; Elapsed is not known).
func (c *Conn) ListTasks(ctx context.Context) ([]TaskStatus, error) {
	if c.ProtocolVersion() >= ProtocolModern {
		return nil, errNoTaskList
	}
	ctx, done := c.bind(ctx)
	defer done()
	raw, err := c.side.call(ctx, MethodListTasks, map[string]any{})
	if err != nil {
		return nil, err
	}
	var page struct {
		Tasks []wireTask `json:"tasks"`
	}
	if err := json.Unmarshal(raw, &page); err != nil {
		return nil, fmt.Errorf("%s: %w", MethodListTasks, err)
	}
	tasks := make([]TaskStatus, len(page.Tasks))
	for i, w := range page.Tasks {
		tasks[i] = w.status(time.Now(), c.Secrets())
		tasks[i].Elapsed = 0
	}
	return tasks, nil
}

// errNoTaskList: the 2026-07-28 tasks extension has no tasks/list.
var errNoTaskList = errors.New("the 2026-07-28 tasks extension has no tasks/list: a client follows only the tasks it started")

// trackTask counts a task as live until the returned function is called:
// closing the connection cancels the live ones first.
func (c *Conn) trackTask(id string) func() {
	c.toolsMu.Lock()
	if c.liveTasks == nil {
		c.liveTasks = map[string]bool{}
	}
	c.liveTasks[id] = true
	c.toolsMu.Unlock()
	return func() {
		c.toolsMu.Lock()
		delete(c.liveTasks, id)
		c.toolsMu.Unlock()
	}
}

// cancelLiveTasks asks the server to cancel every task still followed,
// at once and briefly: the connection is closing (the person quit, or
// switched servers), and its calls' own cancels would find it closed.
func (c *Conn) cancelLiveTasks() {
	c.toolsMu.Lock()
	ids := slices.Collect(maps.Keys(c.liveTasks))
	c.toolsMu.Unlock()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { _ = c.cancelTask(id) })
	}
	wg.Wait()
}

// cancelTask asks the server to cancel a task, briefly: the call is
// ending. In the 2026-07-28 era the request declares the tasks extension.
func (c *Conn) cancelTask(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	params := map[string]any{"taskId": id}
	if c.ProtocolVersion() >= ProtocolModern {
		params = c.taskParams(id, nil)
	}
	_, err := c.side.call(ctx, "tasks/cancel", params)
	if err != nil {
		c.wire.Note(fmt.Sprintf("tasks/cancel %s: %v", id, err))
	}
	return err
}

func decodeResult(raw json.RawMessage) (*mcp.CallToolResult, error) {
	var res mcp.CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("the task's result is not a tool result: %w", err)
	}
	if res.Content == nil { // a result without content has none
		res.Content = []mcp.Content{}
	}
	return &res, nil
}

// relatedTask is the task id a request's _meta names, or "".
func relatedTask(meta mcp.Meta) string {
	id, _ := asObject(meta[RelatedTaskKey])["taskId"].(string)
	return id
}
