package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// forgedServer speaks 2025-11-25 by hand with one tool, job, that runs only
// as a task. It answers mcpeek's side channel (the task methods) with the
// forgery MCPEEK_TEST_FORGE names: an answer whose shape is not the
// request's.
func forgedServer() int {
	forge := os.Getenv("MCPEEK_TEST_FORGE")
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	send := func(line string) {
		out.WriteString(line + "\n")
		out.Flush()
	}
	reply := func(id json.RawMessage, result string) {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result))
	}
	for in.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil || msg.ID == nil {
			continue
		}
		switch msg.Method {
		case "initialize":
			reply(msg.ID, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"tasks":{"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"forger","version":"1"}}`)
		case "tools/list":
			reply(msg.ID, `{"tools":[{"name":"job","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}]}`)
		case "tools/call", "tasks/get", "tasks/result":
			send(forgery(forge, msg.Method, msg.ID))
		case "tasks/cancel":
			reply(msg.ID, `{"taskId":"t1","status":"cancelled"}`)
		default:
			send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, msg.ID))
		}
	}
	return 0
}

// forgery is the line answering method under the named forgery: the
// forged answer itself, or the honest answer that leads to it.
func forgery(forge, method string, id json.RawMessage) string {
	honest := map[string]string{
		"tools/call":   `"result":{"task":{"taskId":"t1","status":"working","pollInterval":100}}`,
		"tasks/get":    `"result":{"taskId":"t1","status":"completed"}`,
		"tasks/result": `"result":{"content":[{"type":"text","text":"done"}]}`,
	}
	forged := map[string]map[string]string{
		"call-null":     {"tools/call": `"result":null`},
		"content-null":  {"tools/call": `"result":{"content":null}`},
		"call-both":     {"tools/call": `"result":{"content":[]},"error":{"code":-32000,"message":"and an error"}`},
		"call-neither":  {"tools/call": ``},
		"call-string":   {"tools/call": `"result":"done"`},
		"task-no-id":    {"tools/call": `"result":{"task":{"status":"working"}}`},
		"get-no-id":     {"tasks/get": `"result":{"status":"completed"}`},
		"get-no-status": {"tasks/get": `"result":{"taskId":"t1"}`},
		"result-null":   {"tasks/result": `"result":null`},
		// The 2026-07-28 extension's shapes, on a 2025-11-25 connection.
		"call-bogus-type": {"tools/call": `"result":{"resultType":"bogus"}`},
		"call-ext-task":   {"tools/call": `"result":{"resultType":"task","taskId":"t","status":"working"}`},
		"call-ext-input":  {"tools/call": `"result":{"resultType":"input_required","inputRequests":{}}`},
		// Not forged: a result without content, as go-sdk's own call path
		// and the TypeScript client take it.
		"structured-only": {"tasks/result": `"result":{"structuredContent":{"answer":42}}`},
	}
	body, ok := forged[forge][method]
	if !ok {
		body = honest[method]
	}
	if body != "" {
		body = "," + body
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s%s}`, id, body)
}

// TestForgedSideAnswersRefused: an answer to a task method whose shape is
// not the request's (a null result or content, both a result and an error
// or neither, a task without its id or status, the other era's shapes) is
// refused with an error that
// says what was wrong, never taken for an empty result; the call settles
// at once.
func TestForgedSideAnswersRefused(t *testing.T) {
	for _, tc := range []struct{ forge, want string }{
		{"call-null", "its result is null, not an object"},
		{"content-null", "it is not a tool result: its content is null, not an array"},
		{"call-both", "it has both a result and an error"},
		{"call-neither", "it has neither a result nor an error"},
		{"call-string", "its result is a string, not an object"},
		{"task-no-id", "its task has no taskId"},
		{"get-no-id", "its task has no taskId"},
		{"get-no-status", "its task has no status"},
		{"result-null", "its result is null, not an object"},
		{"call-bogus-type", `its resultType "bogus" belongs to the 2026-07-28 tasks extension`},
		{"call-ext-task", `its resultType "task" belongs to the 2026-07-28 tasks extension`},
		{"call-ext-input", `its resultType "input_required" belongs to the 2026-07-28 tasks extension`},
	} {
		t.Run(tc.forge, func(t *testing.T) {
			t.Parallel()
			r := mcpeek(t, "call", "job", "--timeout", "20s", "-e", "MCPEEK_TEST_SERVER=forged", "-e", "MCPEEK_TEST_FORGE="+tc.forge, "--", testBinary)
			if r.code != exitConnection {
				t.Errorf("exit %d, want %d; stdout %q, stderr %q", r.code, exitConnection, r.stdout, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("a refused answer printed a result: %q", r.stdout)
			}
			if want := "the server's answer is malformed: " + tc.want; !strings.Contains(r.stderr, want) {
				t.Errorf("stderr = %q, want it to say %q", r.stderr, want)
			}
		})
	}
	// The honest server's task runs to its result.
	r := mcpeek(t, "call", "job", "--timeout", "20s", "-e", "MCPEEK_TEST_SERVER=forged", "--", testBinary)
	if r.code != exitOK || !strings.Contains(r.stdout, `"done"`) {
		t.Errorf("the honest task: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// A result with structuredContent and no content is a result.
	r = mcpeek(t, "call", "job", "--timeout", "20s", "-e", "MCPEEK_TEST_SERVER=forged", "-e", "MCPEEK_TEST_FORGE=structured-only", "--", testBinary)
	if r.code != exitOK || !strings.Contains(r.stdout, `"answer": 42`) || !strings.Contains(r.stdout, `"content": []`) {
		t.Errorf("a result without content: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
