package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The side channel speaks requests go-sdk v1.8.0 has no method for (the
// task methods) on the same connection, beside the SDK (docs/architecture.md,
// "Tasks"). Its request ids are strings with a prefix the SDK never uses
// (the SDK numbers its own), so responses are told apart by id alone:
//
//   - over stdio and in memory, the tap writes the request and keeps the
//     response from the SDK;
//   - over streamable HTTP, it POSTs the request itself, with the session
//     id, protocol version and authorization the SDK's requests carry,
//     and reads the answer (JSON or an event stream). Server requests that
//     arrive on that stream (an elicitation queued for a task) are answered
//     through the router and POSTed back.

// sidePrefix starts every side-channel request id.
const sidePrefix = "mcpeek-side-"

// errSideClosed settles the waiters of a connection that ended.
var errSideClosed = errors.New("the connection closed")

// sideChannel is one connection's side channel.
type sideChannel struct {
	conn *Conn

	mu      sync.Mutex
	next    int64
	waiters map[string]chan *jsonrpc.Response
	write   func(ctx context.Context, msg jsonrpc.Message) error // stdio and in memory: the tap's
	closed  error
}

func newSideChannel(c *Conn) *sideChannel {
	return &sideChannel{conn: c, waiters: map[string]chan *jsonrpc.Response{}}
}

// deliver hands a response with a side-channel id to its waiter and
// reports whether it was one (then the SDK never sees it).
func (s *sideChannel) deliver(resp *jsonrpc.Response) bool {
	id, ok := resp.ID.Raw().(string)
	if !ok || !strings.HasPrefix(id, sidePrefix) {
		return false
	}
	s.mu.Lock()
	w := s.waiters[id]
	delete(s.waiters, id)
	s.mu.Unlock()
	if w != nil {
		w <- resp // buffered
	}
	return true
}

// closeAll settles every waiter: the connection ended.
func (s *sideChannel) closeAll(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed == nil {
		s.closed = err
	}
	for id, w := range s.waiters {
		w <- &jsonrpc.Response{Error: fmt.Errorf("%w: %v", errSideClosed, err)}
		delete(s.waiters, id)
	}
}

// call sends method with params and returns the result.
func (s *sideChannel) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.closed != nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("%w: %v", errSideClosed, s.closed)
	}
	s.next++
	id := fmt.Sprintf("%s%d", sidePrefix, s.next)
	w := make(chan *jsonrpc.Response, 1)
	s.waiters[id] = w
	write := s.write
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.waiters, id)
		s.mu.Unlock()
	}()
	rid, err := jsonrpc.MakeID(id)
	if err != nil {
		return nil, err
	}
	req := &jsonrpc.Request{ID: rid, Method: method, Params: raw}
	if t := s.conn.cfg.Target; t.Kind == TargetHTTP && !t.SSE {
		go s.post(ctx, req)
	} else if write == nil {
		return nil, errors.New("the side channel is not connected")
	} else if err := write(ctx, req); err != nil {
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed != nil {
			return nil, fmt.Errorf("%w: %v", errSideClosed, closed)
		}
		return nil, err
	}
	select {
	case resp := <-w:
		return answerOf(method, s.conn.ProtocolVersion() >= ProtocolModern, resp, s.conn.Secrets())
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// post sends one request over streamable HTTP and delivers what answers
// it; a failure is delivered as the request's error.
func (s *sideChannel) post(ctx context.Context, req *jsonrpc.Request) {
	fail := func(err error) { s.deliver(&jsonrpc.Response{ID: req.ID, Error: err}) }
	resp, err := s.send(ctx, req)
	if err != nil {
		fail(err)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		// The server's own words, when it gave a JSON-RPC error.
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<10))
		if msg, err := jsonrpc.DecodeMessage(body); err == nil {
			if r, ok := msg.(*jsonrpc.Response); ok && r.Error != nil {
				fail(fmt.Errorf("%s %s: %w", req.Method, resp.Status, r.Error))
				return
			}
		}
		fail(fmt.Errorf("%s %s", req.Method, resp.Status))
		return
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if media == "text/event-stream" {
		if err := s.readEvents(ctx, resp.Body); err != nil {
			fail(fmt.Errorf("%s: %w", req.Method, err))
			return
		}
	} else {
		body, err := io.ReadAll(resp.Body) // at most a message: the tap bounds it
		if err != nil {
			fail(fmt.Errorf("%s: %w", req.Method, err))
			return
		}
		s.receive(ctx, body)
	}
	// Whatever the stream said, the waiter must not wait for ever.
	fail(fmt.Errorf("%s: the server's answer carried no response", req.Method))
}

// send POSTs one message with the headers the SDK's own requests carry.
func (s *sideChannel) send(ctx context.Context, msg jsonrpc.Message) (*http.Response, error) {
	c := s.conn
	body, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return nil, err
	}
	r, err := http.NewRequestWithContext(context.WithValue(ctx, sideRequest{}, true), http.MethodPost, c.cfg.Target.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if id := c.session.ID(); id != "" {
		r.Header.Set("Mcp-Session-Id", id)
	}
	r.Header.Set("Mcp-Protocol-Version", c.ProtocolVersion())
	if req, ok := msg.(*jsonrpc.Request); ok && c.ProtocolVersion() >= ProtocolModern {
		// The 2026-07-28 transport names each request's method and target
		// in headers, as the SDK's own requests do.
		r.Header.Set("Mcp-Method", req.Method)
		var p struct {
			Name   string `json:"name"`
			TaskID string `json:"taskId"`
		}
		_ = json.Unmarshal(req.Params, &p)
		if name := p.Name + p.TaskID; name != "" && (req.Method == "tools/call" || strings.HasPrefix(req.Method, "tasks/")) {
			r.Header.Set("Mcp-Name", name)
		}
	}
	if c.cfg.Auth != nil {
		if ts, err := c.cfg.Auth.TokenSource(ctx); err == nil && ts != nil {
			if tok, err := ts.Token(); err == nil {
				tok.SetAuthHeader(r)
			}
		}
	}
	return c.httpClient.Do(r)
}

// readEvents reads an event stream's messages until it ends; an event
// larger than a message may be ends it with an error.
func (s *sideChannel) readEvents(ctx context.Context, body io.Reader) error {
	limit := s.conn.maxMessage()
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), int(min(limit, math.MaxInt32))+2)
	var data bytes.Buffer
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "data:"):
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		case line == "":
			if data.Len() > 0 {
				s.receive(ctx, data.Bytes())
				data.Reset()
			}
		}
		if int64(data.Len()) > limit {
			return &MessageTooLargeError{Limit: limit}
		}
	}
	if err := sc.Err(); err != nil {
		// A line over the scanner's bound, or the tap ending the stream
		// in an event over the limit made of short lines.
		var big *MessageTooLargeError
		if errors.Is(err, bufio.ErrTooLong) || errors.As(err, &big) {
			return &MessageTooLargeError{Limit: limit}
		}
		return err
	}
	if data.Len() > 0 {
		s.receive(ctx, data.Bytes())
	}
	return nil
}

// receive takes one message from a side-channel answer: a response goes
// to its waiter; a server request (an elicitation queued for a task) is
// answered through the router.
func (s *sideChannel) receive(ctx context.Context, data []byte) {
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return
	}
	switch m := msg.(type) {
	case *jsonrpc.Response:
		s.deliver(m)
	case *jsonrpc.Request:
		if m.ID.IsValid() {
			go s.answer(ctx, m)
		}
	}
}

// answer answers a server request that came on a side-channel stream and
// POSTs the response back.
func (s *sideChannel) answer(ctx context.Context, req *jsonrpc.Request) {
	resp := &jsonrpc.Response{ID: req.ID}
	switch req.Method {
	case "ping":
		resp.Result = json.RawMessage(`{}`)
	case "elicitation/create", "sampling/createMessage", "roots/list":
		// As the same requests of a task of the tasks extension are.
		res, err := s.conn.answerInput(ctx, "", req.Method, req.Params)
		if err != nil {
			resp.Error = err
		} else {
			resp.Result, _ = json.Marshal(res)
		}
	default:
		resp.Error = &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "mcpeek does not answer " + req.Method + " here"}
	}
	// The answer goes even if the stream that asked has ended, but not
	// after the connection, and not for ever.
	sendCtx, cancel := context.WithTimeout(s.conn.Context(), 10*time.Second)
	defer cancel()
	r, err := s.send(sendCtx, resp)
	if err != nil {
		s.conn.wire.Note(fmt.Sprintf("answering %s on a task's stream: %v", req.Method, err))
		return
	}
	r.Body.Close()
}

// answerOf is a side-channel response's result once its shape is the
// request's in the era the connection speaks (modern: 2026-07-28 and its
// tasks extension). A broken or forged answer (both a result and an
// error, or neither; a null result; a tools/call answer that is neither a
// tool result, a task of the era nor its request for input; a task
// without its id or status; a completed task without its result) is
// refused, saying what was wrong: it is never taken for an empty result.
// What it quotes of the answer is redacted of secrets.
func answerOf(method string, modern bool, resp *jsonrpc.Response, secrets *Secrets) (json.RawMessage, error) {
	hasResult := len(resp.Result) > 0
	switch {
	case resp.Error != nil && hasResult:
		return nil, errors.New("the server's answer is malformed: it has both a result and an error")
	case resp.Error != nil:
		return nil, resp.Error
	case !hasResult:
		return nil, errors.New("the server's answer is malformed: it has neither a result nor an error")
	}
	if err := checkAnswer(method, modern, resp.Result, secrets); err != nil {
		return nil, fmt.Errorf("the server's answer is malformed: %w", err)
	}
	return resp.Result, nil
}

// checkAnswer checks that a result has the shape of method's answer in
// the era (modern or not).
func checkAnswer(method string, modern bool, raw json.RawMessage, secrets *Secrets) error {
	obj, err := object(raw, "result")
	if err != nil {
		return err
	}
	switch method {
	case "tools/call":
		if modern {
			return checkExtCallAnswer(obj, secrets)
		}
		return checkCallAnswer(obj, secrets)
	case "tasks/get":
		if modern {
			return checkExtTask(obj)
		}
		return checkTask(obj)
	case "tasks/result":
		return checkToolResult(obj)
	case "tasks/list":
		return needArray(obj, "tasks")
	case "tools/list":
		return needArray(obj, "tools")
	}
	return nil
}

// object is raw as a JSON object, or an error naming what (what it is)
// when it is none.
func object(raw json.RawMessage, what string) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("its %s is %s, not an object", what, jsonKind(raw))
	}
	return obj, nil
}

// checkCallAnswer checks a 2025-11-25 tools/call answer: a tool result or
// a task under "task". A resultType other than "complete" (which says
// nothing more than a tool result does) belongs to the other era.
func checkCallAnswer(obj map[string]json.RawMessage, secrets *Secrets) error {
	if raw, ok := obj["resultType"]; ok {
		var kind string
		if json.Unmarshal(raw, &kind) != nil || kind != "complete" {
			return fmt.Errorf("its resultType %s belongs to the 2026-07-28 tasks extension, not to the 2025-11-25 protocol spoken", secrets.cut(string(raw), 40))
		}
	}
	if raw, ok := obj["task"]; ok {
		task, err := object(raw, "task")
		if err != nil {
			return err
		}
		return checkTask(task)
	}
	return checkToolResult(obj)
}

// checkExtCallAnswer checks a 2026-07-28 tools/call answer of the tasks
// extension: by its resultType, a tool result ("" or "complete"), a task,
// or a request for input. A 2025-11-25 task (under "task") is none.
func checkExtCallAnswer(obj map[string]json.RawMessage, secrets *Secrets) error {
	var kind string
	if raw, ok := obj["resultType"]; ok && json.Unmarshal(raw, &kind) != nil {
		return fmt.Errorf("its resultType is %s, not a string", jsonKind(raw))
	}
	switch kind {
	case "task":
		return checkExtTask(obj)
	case "input_required":
		var requests map[string]json.RawMessage
		if json.Unmarshal(obj["inputRequests"], &requests) != nil || len(requests) == 0 {
			return errors.New("it asks for input without inputRequests")
		}
		return nil
	case "", "complete":
		if _, ok := obj["task"]; ok {
			return errors.New("it is a 2025-11-25 task (under \"task\"), which the 2026-07-28 tasks extension does not send")
		}
		return checkToolResult(obj)
	}
	return fmt.Errorf("its resultType %q is none of complete, task or input_required", secrets.cut(kind, 40))
}

// checkTask checks a task: it has its id and status.
func checkTask(obj map[string]json.RawMessage) error {
	var task struct {
		TaskID *string `json:"taskId"`
		Status *string `json:"status"`
	}
	_ = json.Unmarshal(obj["taskId"], &task.TaskID)
	_ = json.Unmarshal(obj["status"], &task.Status)
	switch {
	case task.TaskID == nil || *task.TaskID == "":
		return errors.New("its task has no taskId")
	case task.Status == nil || *task.Status == "":
		return errors.New("its task has no status")
	}
	return nil
}

// checkExtTask checks a task of the tasks extension: a task, with a tool
// result once it completed.
func checkExtTask(obj map[string]json.RawMessage) error {
	if err := checkTask(obj); err != nil {
		return err
	}
	var status string
	_ = json.Unmarshal(obj["status"], &status)
	if status != "completed" {
		return nil
	}
	res, err := object(obj["result"], "completed task's result")
	if err != nil {
		return err
	}
	return checkToolResult(res)
}

// checkToolResult checks a tool result: its content, when it has one, is
// an array. A result without content has none, as go-sdk's and the
// TypeScript SDK's clients take it (structuredContent alone, say), unless
// it is a task's status instead (checkNotTask).
func checkToolResult(obj map[string]json.RawMessage) error {
	if _, ok := obj["content"]; !ok {
		return checkNotTask(obj)
	}
	if err := needArray(obj, "content"); err != nil {
		return fmt.Errorf("it is not a tool result: %w", err)
	}
	return nil
}

// checkNotTask refuses, as a tool result, a task's status: an answer
// without content that carries a taskId ({"taskId": …, "status":
// "completed"}) and no resultType other than "complete" (which the
// extension's checks judge) is no result of the tool's, and taking it for
// an empty one would report a call that did nothing as a success.
func checkNotTask(obj map[string]json.RawMessage) error {
	_, content := obj["content"]
	var kind string
	_ = json.Unmarshal(obj["resultType"], &kind)
	if _, task := obj["taskId"]; task && !content && (kind == "" || kind == "complete") {
		return errors.New("it has no content but a taskId: it is a task's status, not a tool result")
	}
	return nil
}

// needArray checks that obj has an array member key.
func needArray(obj map[string]json.RawMessage, key string) error {
	var items []json.RawMessage
	if json.Unmarshal(obj[key], &items) != nil || items == nil {
		return fmt.Errorf("its %s is %s, not an array", key, jsonKind(obj[key]))
	}
	return nil
}

// jsonKind names the kind of a JSON value, for an error.
func jsonKind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "missing"
	}
	switch t[0] {
	case 'n':
		return "null"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}
