package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/tsservers"
)

// bareAsksServer speaks 2025-11-25 by hand. Its tool ask_bare sends
// mcpeek roots/list, elicitation/create and sampling/createMessage, each
// without params (optional on roots/list; the others are still requests to
// answer), and answers the call with how each was answered, one line each:
// "METHOD: result JSON" or "METHOD: error CODE".
func bareAsksServer() int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	send := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	asks := []string{"roots/list", "elicitation/create", "sampling/createMessage"}
	var call json.RawMessage // the id of the tools/call waiting for the answers
	answers := map[string]string{}
	for in.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil || msg.ID == nil {
			continue
		}
		switch msg.Method {
		case "initialize":
			send(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"bare","version":"1"}}}`, msg.ID)
		case "tools/list":
			send(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"ask_bare","inputSchema":{"type":"object"}}]}}`, msg.ID)
		case "tools/call":
			call = msg.ID
			for i, m := range asks {
				send(`{"jsonrpc":"2.0","id":"ask-%d","method":%q}`, i, m)
			}
		case "":
			var i int
			if _, err := fmt.Sscanf(strings.Trim(string(msg.ID), `"`), "ask-%d", &i); err != nil || i < 0 || i >= len(asks) {
				continue
			}
			if msg.Error != nil {
				answers[asks[i]] = fmt.Sprintf("error %d", msg.Error.Code)
			} else {
				answers[asks[i]] = "result " + string(msg.Result)
			}
			if len(answers) == len(asks) {
				var lines []string
				for _, m := range asks {
					lines = append(lines, m+": "+answers[m])
				}
				text, _ := json.Marshal(strings.Join(lines, "\n"))
				send(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%s}]}}`, call, text)
			}
		default:
			send(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, msg.ID)
		}
	}
	return 0
}

// resultText is the text of a printed CallToolResult's first content.
func resultText(t *testing.T, r result) string {
	t.Helper()
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || len(res.Content) == 0 {
		t.Fatalf("stdout is not a CallToolResult with content (%v): %q; stderr %q", err, r.stdout, r.stderr)
	}
	return res.Content[0].Text
}

// TestBareAsksLegacy: in 2025-11-25, requests to mcpeek without params are
// answered as if their params were empty, and the connection lives on:
// roots/list with the roots, an elicitation by the answering policy
// (cancel), and a sampling request with no messages refused as invalid
// params, which is the server's to handle.
func TestBareAsksLegacy(t *testing.T) {
	r := mcpeek(t, append([]string{"call", "ask_bare", "--timeout", "20s", "--root", "file:///srv/repo"}, testServerArgs("bare-asks")...)...)
	if r.code != exitOK {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	text := resultText(t, r)
	for _, want := range []string{
		`roots/list: result {"roots":[{"uri":"file:///srv/repo"}]}`,
		`elicitation/create: result {"action":"cancel"}`,
		`sampling/createMessage: error -32602`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the server heard:\n%s\nwant a line %q", text, want)
		}
	}
}

// TestBareInputRequests: a 2026-07-28 server built on the TypeScript SDK
// asks with input requests that have no params, as the specification
// allows ("inputRequests": {"ask": {"method": "roots/list"}}): mcpeek
// answers them, over stdio and over HTTP, and the call ends with the
// tool's result, never with "the server went away". The legacy era gets
// the same roots/list as a request without params.
func TestBareInputRequests(t *testing.T) {
	t.Parallel()
	server := tsservers.Asks(t)
	url := tsservers.HTTP(t, slices.Concat(server, []string{"--http"}))
	for _, tc := range []struct {
		name, tool, protocol string
		over                 []string
		want                 string
	}{
		{"roots, stdio", "bare_roots", "modern", append([]string{"--"}, server...), "roots: file:///srv/repo"},
		{"roots, HTTP", "bare_roots", "modern", []string{url}, "roots: file:///srv/repo"},
		{"roots, legacy", "bare_roots", "legacy", append([]string{"--"}, server...), "roots: file:///srv/repo"},
		{"elicitation, stdio", "bare_elicit", "modern", append([]string{"--"}, server...), `answered: {"action":"cancel"}`},
		{"elicitation, HTTP", "bare_elicit", "modern", []string{url}, `answered: {"action":"cancel"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"call", tc.tool, "--protocol", tc.protocol, "--root", "file:///srv/repo", "--timeout", "30s"}, tc.over...)
			r := mcpeek(t, args...)
			if r.code != exitOK {
				t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
			if got := resultText(t, r); got != tc.want {
				t.Errorf("the tool said %q, want %q", got, tc.want)
			}
		})
	}
	// A sampling entry without params has no messages to show anyone: the
	// call ends saying so, not blaming the connection.
	r := mcpeek(t, append([]string{"call", "bare_sample", "--protocol", "modern", "--timeout", "30s", "--"}, server...)...)
	if !strings.Contains(r.stderr, "sampling request has no messages") || strings.Contains(r.stderr, "went away") {
		t.Errorf("bare_sample: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestBackChannelSuggestsLegacy: a server that asks mcpeek with a request
// of its own, outside the tool's input rounds, fails in 2026-07-28 with its
// SDK's refusal; mcpeek's message then suggests --protocol legacy, whether
// the refusal ends the call as an error or comes back as an isError
// result; in the legacy era the same tool works and nothing is suggested.
func TestBackChannelSuggestsLegacy(t *testing.T) {
	server := tsservers.Asks(t)
	const hint = "try --protocol legacy"
	for _, tc := range []struct {
		tool, protocol string
		code           int
		hinted         bool
	}{
		{"push_roots", "modern", exitConnection, true},
		{"push_roots_result", "modern", exitToolError, true},
		{"push_roots", "legacy", exitOK, false},
		{"push_roots_result", "legacy", exitOK, false},
	} {
		t.Run(tc.tool+", "+tc.protocol, func(t *testing.T) {
			t.Parallel()
			r := mcpeek(t, append([]string{"call", tc.tool, "--protocol", tc.protocol, "--root", "file:///srv/repo", "--timeout", "30s", "--"}, server...)...)
			if r.code != tc.code || strings.Contains(r.stderr, hint) != tc.hinted {
				t.Errorf("exit %d (want %d), stderr %q; want the hint: %v", r.code, tc.code, r.stderr, tc.hinted)
			}
			if tc.hinted && strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Errorf("stderr is more than one line: %q", r.stderr)
			}
		})
	}
}

// TestConnectErrorNamesStatus: a headless run that cannot connect to a URL
// says the HTTP status the server answered and the mcpeek doctor command
// that checks the same server step by step, without the URL's query.
func TestConnectErrorNamesStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/broken" {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	for _, tc := range []struct{ path, status string }{
		{"/mcp?key=s3cret", "HTTP 404 Not Found"},
		{"/broken", "HTTP 500 Internal Server Error"},
	} {
		r := mcpeek(t, "list", "tools", "--connect-timeout", "10s", srv.URL+tc.path)
		path, _, _ := strings.Cut(tc.path, "?")
		if r.code != exitConnection || !strings.Contains(r.stderr, "the server answered "+tc.status) ||
			!strings.Contains(r.stderr, "mcpeek doctor "+srv.URL+path) || strings.Contains(r.stderr, "s3cret") {
			t.Errorf("%s: exit %d, stderr %q", tc.path, r.code, r.stderr)
		}
	}
	// A command that does not start is pointed to the doctor too.
	r := mcpeek(t, "list", "tools", "--", "/nonexistent/mcp server")
	if r.code != exitConnection || !strings.Contains(r.stderr, "mcpeek doctor -- '/nonexistent/mcp server' checks each step") {
		t.Errorf("a missing command: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestListKeepsTheServersKeyOrder: `mcpeek list tools` prints each tool as
// the TypeScript SDK wrote it, its name first, rather than in go-sdk's
// (alphabetical) order of its struct, in both eras.
func TestListKeepsTheServersKeyOrder(t *testing.T) {
	t.Parallel()
	server := tsservers.Asks(t)
	for _, protocol := range []string{"legacy", "modern"} {
		r := mcpeek(t, slices.Concat([]string{"list", "tools", "--protocol", protocol, "--"}, server)...)
		first := strings.Index(r.stdout, `"name"`)
		if r.code != exitOK || first < 0 || first > strings.Index(r.stdout, `"inputSchema"`) {
			t.Errorf("%s: exit %d, want each tool's name before its inputSchema, as the server sent them: %.400s %s", protocol, r.code, r.stdout, r.stderr)
		}
	}
}
