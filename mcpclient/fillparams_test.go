package mcpclient

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The asks a server may send without params get an empty params object,
// as a request of their own or as input requests of a result, and a form
// elicitation among input requests has its requested schema moved into
// _meta, away from go-sdk (ownschema_modern.go); the rest of the message
// keeps its bytes, a requested schema its property order.
func TestFillWire(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"roots/list request", `{"jsonrpc":"2.0","id":1,"method":"roots/list"}`, `{"id":1,"jsonrpc":"2.0","method":"roots/list","params":{}}`},
		{"null params", `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":null}`, `{"id":1,"jsonrpc":"2.0","method":"elicitation/create","params":{}}`},
		{"sampling request", `{"jsonrpc":"2.0","id":"s","method":"sampling/createMessage"}`, `{"id":"s","jsonrpc":"2.0","method":"sampling/createMessage","params":{}}`},
		{"input requests", `{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"},"q":{"method":"elicitation/create","params":{"message":"<b>","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}}}}}}}`,
			`{"id":2,"jsonrpc":"2.0","result":{"inputRequests":{"q":{"method":"elicitation/create","params":{"_meta":{"io.mcpeek/requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}}},"message":"<b>"}},"r":{"method":"roots/list","params":{}}},"resultType":"input_required"}}`},
		{"a form's schema beside its _meta", `{"jsonrpc":"2.0","id":2,"result":{"inputRequests":{"q":{"method":"elicitation/create","params":{"mode":"form","message":"m","_meta":{"ui":{"resourceUri":"ui://a/b"}},"requestedSchema":{"type":"object","properties":{"d":{"type":"string","default":""}}}}}}}}`,
			`{"id":2,"jsonrpc":"2.0","result":{"inputRequests":{"q":{"method":"elicitation/create","params":{"_meta":{"io.mcpeek/requestedSchema":{"type":"object","properties":{"d":{"type":"string","default":""}}},"ui":{"resourceUri":"ui://a/b"}},"message":"m","mode":"form"}}}}}`},
		{"a URL elicitation", `{"jsonrpc":"2.0","id":2,"result":{"inputRequests":{"q":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://a.test","requestedSchema":{"type":"object"}}}}}}`, ``},
		{"a legacy request's schema", `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}`, ``},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"roots/list"},{"jsonrpc":"2.0","method":"notifications/message","params":{}}]`,
			`[{"id":1,"jsonrpc":"2.0","method":"roots/list","params":{}},{"jsonrpc":"2.0","method":"notifications/message","params":{}}]`},
		{"params given", `{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{"_meta":{}}}`, ``},
		{"a notification", `{"jsonrpc":"2.0","method":"roots/list"}`, ``},
		{"another method", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, ``},
		{"input requests with params", `{"jsonrpc":"2.0","id":2,"result":{"inputRequests":{"r":{"method":"roots/list","params":{}}}}}`, ``},
		{"not JSON", `{"method":"roots/list"`, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(fillWire([]byte(tc.in))); got != tc.want {
				t.Errorf("fillWire(%s)\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

// A decoded message is filled the same way, and go-sdk then reads the
// result it failed on before: an input request without params.
func TestFillMessage(t *testing.T) {
	msg, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(msg.(*jsonrpc.Response).Result, &res); err == nil {
		t.Fatal("go-sdk reads an input request without params now: the filling may go")
	}
	fillMessage(msg)
	if err := json.Unmarshal(msg.(*jsonrpc.Response).Result, &res); err != nil || len(res.InputRequests) != 1 {
		t.Errorf("filled: %v, %v", err, res.InputRequests)
	}
	req, _ := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":3,"method":"elicitation/create"}`))
	fillMessage(req)
	if p := string(req.(*jsonrpc.Request).Params); p != `{}` {
		t.Errorf("a legacy elicitation without params: params %q", p)
	}
}

type bodyTransport struct{ media, body string }

func (b bodyTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{"Content-Type": {b.media}},
		Body: io.NopCloser(strings.NewReader(b.body))}, nil
}

// Over HTTP the tap fills what the SDK reads, in a JSON body and in an
// event stream, and the wire log keeps what the server wrote.
func TestHTTPTapFills(t *testing.T) {
	bare := `{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}}}`
	filled := `{"id":2,"jsonrpc":"2.0","result":{"inputRequests":{"r":{"method":"roots/list","params":{}}},"resultType":"input_required"}}`
	for _, tc := range []struct{ name, media, body, want string }{
		{"JSON", "application/json", bare, filled},
		{"event stream", "text/event-stream", "id: 1\ndata: \n\nevent: message\ndata: " + bare + "\n\n", "id: 1\ndata: \n\nevent: message\ndata: " + filled + "\n\n"},
		{"CRLF event stream", "text/event-stream", "data: " + bare + "\r\n\r\n", "data: " + filled + "\n\r\n"},
		{"untouched", "text/event-stream", "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n: comment\n", "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n: comment\n"},
		{"unfinished last line", "text/event-stream", "data: " + bare, "data: " + bare},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wire := NewWireLog(0, nil)
			tap := httpTap{base: bodyTransport{tc.media, tc.body}, wire: wire, limit: 1 << 20}
			req, _ := http.NewRequest(http.MethodGet, "http://example.test/mcp", nil)
			resp, err := tap.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(iotest.OneByteReader(resp.Body))
			if err != nil || string(got) != tc.want {
				t.Errorf("the SDK reads (%v)\n%q\nwant\n%q", err, got, tc.want)
			}
			if tc.name != "untouched" && tc.name != "unfinished last line" {
				var logged []string
				for _, e := range wire.Entries() {
					if e.Dir == DirRecv {
						logged = append(logged, string(e.Message))
					}
				}
				if len(logged) != 1 || !strings.Contains(logged[0], `{"method":"roots/list"}`) {
					t.Errorf("the wire log holds %q, want the message as the server wrote it", logged)
				}
			}
		})
	}
}

// Each SDK's wording of a request refused for want of a back-channel in
// 2026-07-28 is recognised; other failures are not.
func TestBackChannelRefusal(t *testing.T) {
	for text, want := range map[string]bool{
		"Server-to-client requests are not available on protocol revision 2026-07-28: 'roots/list' cannot be sent":                        true,
		`"elicitation/create" cannot be sent while serving a request on protocol version 2026-07-28: return an InputRequests map instead`: true,
		"Error executing tool ask: No back-channel available for this request":                                                            true,
		"the tool failed: file not found":   false,
		"calling \"tools/call\": Not Found": false,
	} {
		if got := backChannelRefusal(text); got != want {
			t.Errorf("backChannelRefusal(%q) = %v, want %v", text, got, want)
		}
	}
}

// The router takes the schema the tap moved back into its place, and the
// params as go-sdk decoded them are the params as the server wrote them
// again: the params book finds the server's bytes by them.
func TestOwnParams(t *testing.T) {
	server := `{"message":"m","_meta":{"ui":{"resourceUri":"ui://a/b"}},"requestedSchema":{"type":"object","properties":{"d":{"type":"string","default":""}}}}`
	moved := fillWire([]byte(`{"jsonrpc":"2.0","id":2,"result":{"inputRequests":{"q":{"method":"elicitation/create","params":` + server + `}}}}`))
	var res struct {
		InputRequests map[string]struct {
			Params mcp.ElicitParams `json:"params"`
		} `json:"inputRequests"`
	}
	var msg struct{ Result json.RawMessage }
	if json.Unmarshal(moved, &msg) != nil || json.Unmarshal(msg.Result, &res) != nil {
		t.Fatalf("moved: %s", moved)
	}
	decoded := res.InputRequests["q"].Params
	if decoded.RequestedSchema != nil {
		t.Fatalf("go-sdk is given a schema: %v", decoded.RequestedSchema)
	}
	own := ownParams(&decoded)
	var book paramsBook
	book.add(json.RawMessage(server))
	if got := book.take(own); string(got) != server {
		t.Errorf("the book gives %s for %+v, want the server's params", got, own)
	}
	if _, left := own.Meta[ownSchemaMeta]; left || own.Meta["ui"] == nil {
		t.Errorf("_meta is %v, want the server's", own.Meta)
	}
	if p := (&mcp.ElicitParams{Message: "m"}); ownParams(p) != p {
		t.Error("params without a moved schema are changed")
	}
}
