package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rewritingProxy stands in front of an SDK server and rewrites every
// elicitation it sends the way servers from other SDKs write them: mode
// omitted (legal: it means form) and a top-level member the Go SDK does not
// know. The requested schema passes through as the server wrote it.
func rewritingProxy(t *testing.T, server *mcp.Server, protocol string) string {
	t.Helper()
	// The 2026-07-28 revision is stateless over HTTP; the legacy one needs
	// a session for the server's own requests.
	opts := &mcp.StreamableHTTPOptions{Stateless: protocol == "modern"}
	backend := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, opts))
	t.Cleanup(backend.Close)
	target, _ := url.Parse(backend.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1
	proxy.ModifyResponse = func(resp *http.Response) error {
		pr, pw := io.Pipe()
		body := resp.Body
		go func() {
			in := bufio.NewReaderSize(body, 1<<20)
			for {
				line, err := in.ReadBytes('\n')
				line = bytes.ReplaceAll(line, []byte(`"mode":"form",`), nil)
				line = bytes.ReplaceAll(line, []byte(`"method":"elicitation/create","params":{`), []byte(`"method":"elicitation/create","params":{"x-extension":{"kept":true},`))
				if _, werr := pw.Write(line); werr != nil || err != nil {
					body.Close()
					pw.CloseWithError(err)
					return
				}
			}
		}()
		resp.Body = pr
		resp.ContentLength = -1
		resp.Header.Del("Content-Length")
		return nil
	}
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	return front.URL
}

// TestWireParamsReachTheAppAndTheForm: whichever era carries it, the app
// renderer gets the request exactly as the server wrote it (no mode added,
// an unknown member kept, properties in the server's order), the record
// keeps the same bytes, and the native form lists the fields in that order.
func TestWireParamsReachTheAppAndTheForm(t *testing.T) {
	// Properties deliberately out of alphabetical order.
	schema := json.RawMessage(`{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"},"mid":{"type":"integer"}},"required":["zeta"]}`)
	wantOrder := []string{"zeta", "alpha", "mid"}
	for _, protocol := range protocols {
		t.Run(protocol, func(t *testing.T) {
			endpoint := rewritingProxy(t, gateServer(true)(), protocol)
			renderer := &fakeRenderer{answer: func(context.Context, *AppRequest) (*AppAnswer, error) {
				return nil, &AppError{Reason: FallbackBridgeClosed} // then the native form
			}}
			asker := &countingAsker{content: map[string]any{"zeta": "z"}}
			records := NewRecorder(nil)
			target, err := ParseTarget([]string{endpoint}, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			conn, err := Connect(context.Background(), Config{
				Target: target, Protocol: protocol, Capabilities: CapabilityOptions{FormElicitation: true},
				Asker: asker, Renderer: renderer, Records: records,
			})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			got := ask(t, conn, map[string]any{"meta": uiMeta("ui://test/app.html"), "schema": schema})
			if got.Action != "accept" || got.Content["zeta"] != "z" {
				t.Fatalf("the server got %+v", got)
			}

			reqs := renderer.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d app renders, want 1", len(reqs))
			}
			raw := reqs[0].RawParams
			var members map[string]json.RawMessage
			if err := json.Unmarshal(raw, &members); err != nil {
				t.Fatalf("RawParams %s: %v", raw, err)
			}
			if _, ok := members["mode"]; ok {
				t.Errorf("the app would get a mode the server did not send: %s", raw)
			}
			if string(members["x-extension"]) != `{"kept":true}` {
				t.Errorf("the unknown member did not reach the app: %s", raw)
			}
			if order := objectKeys(t, mustMember(t, requestedSchema(raw), "properties")); !slices.Equal(order, wantOrder) {
				t.Errorf("properties reach the app in order %v, want %v", order, wantOrder)
			}

			natives := asker.calls()
			if len(natives) != 1 {
				t.Fatalf("%d native asks, want 1 (after the app failed)", len(natives))
			}
			var fields []string
			for _, f := range natives[0].Schema.Fields {
				fields = append(fields, f.Key)
			}
			if !slices.Equal(fields, wantOrder) {
				t.Errorf("the native form lists %v, want the server's order %v", fields, wantOrder)
			}
			if !bytes.Equal(natives[0].RawParams, raw) {
				t.Errorf("native request RawParams %s differ from the app's %s", natives[0].RawParams, raw)
			}
			recs := records.Records()
			if len(recs) != 1 || !bytes.Equal(recs[0].Request, raw) {
				t.Errorf("the record keeps %s, want the wire params %s", recs[0].Request, raw)
			}
			if recs[0].Mode != "form" {
				t.Errorf("record mode = %q, want form (omitted means form)", recs[0].Mode)
			}
		})
	}
}

func mustMember(t *testing.T, obj json.RawMessage, name string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		t.Fatalf("%s: %v", obj, err)
	}
	return m[name]
}

// TestWireParamsFallback: when the tap did not see a request, its params
// are encoded from what the SDK decoded, without an empty mode.
func TestWireParamsFallback(t *testing.T) {
	w := NewWireLog(0, nil)
	raw := w.wireParams(&mcp.ElicitParams{Message: "m", RequestedSchema: map[string]any{"type": "object"}})
	if strings.Contains(string(raw), `"mode"`) || !strings.Contains(string(raw), `"message":"m"`) {
		t.Errorf("wireParams = %s, want the message and no mode", raw)
	}
	seen := `{"message":"m","mode":"form","x":1,"requestedSchema":{"type":"object"}}`
	w.params.note([]byte(`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":` + seen + `}`))
	if got := w.wireParams(&mcp.ElicitParams{Message: "m", Mode: "form", RequestedSchema: map[string]any{"type": "object"}}); string(got) != seen {
		t.Errorf("wireParams = %s, want what the tap saw: %s", got, seen)
	}
	// Taken once: a second identical request is not matched to the same bytes.
	if got := w.wireParams(&mcp.ElicitParams{Message: "m", Mode: "form", RequestedSchema: map[string]any{"type": "object"}}); string(got) == seen {
		t.Error("the same wire params were handed out twice")
	}
}

// objectKeys lists a JSON object's keys in the order written.
func objectKeys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestParamsBookIsBoundedAndExact: requests the SDK refuses are never taken
// back, so the book forgets the oldest past its bounds; a request of
// another mode is never matched; and two requests of the same content
// written differently are not told apart by guessing.
func TestParamsBookIsBoundedAndExact(t *testing.T) {
	var b paramsBook
	big := `{"message":"` + strings.Repeat("x", 512<<10) + `","requestedSchema":{"type":"object"}}`
	for i := 0; i < 20; i++ {
		b.add(json.RawMessage(big))
	}
	if b.bytes > paramsBookBytes || len(b.entries) > paramsBookEntries {
		t.Errorf("the book holds %d entries, %d bytes: past its bounds", len(b.entries), b.bytes)
	}
	b.add(json.RawMessage(`{"message":"` + strings.Repeat("y", paramsMaxBytes) + `"}`))
	if n := len(b.entries); n == 0 || bytes.Contains(b.entries[n-1].raw, []byte("yyyy")) {
		t.Error("params larger than the limit were kept")
	}

	var c paramsBook
	schema := map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}}
	c.add(json.RawMessage(`{"mode":"url","message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string"}}}}`))
	if got := c.take(&mcp.ElicitParams{Message: "m", RequestedSchema: schema}); got != nil {
		t.Errorf("a form request was given a URL request's params: %s", got)
	}

	var d paramsBook
	d.add(json.RawMessage(`{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string"}}},"x":1}`))
	d.add(json.RawMessage(`{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string"}}},"x":2}`))
	if got := d.take(&mcp.ElicitParams{Message: "m", RequestedSchema: schema}); got != nil {
		t.Errorf("two requests alike but written differently: took %s, want none (encode instead)", got)
	}
	if got := d.take(&mcp.ElicitParams{Message: "m", RequestedSchema: schema}); got == nil || !strings.Contains(string(got), `"x":2`) {
		t.Errorf("the second take = %s, want the one left", got)
	}
}
