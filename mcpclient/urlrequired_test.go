package mcpclient

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call the server refuses with -32042 names its pages; each is shown
// as a URL elicitation of the refused call and recorded with path url, in
// both eras, and the call made again succeeds.
func TestURLRequiredIsAskedAndRecorded(t *testing.T) {
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			var asked []*NativeRequest
			records := NewRecorder(nil)
			conn, err := Connect(context.Background(), Config{
				Target:       Target{Kind: TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{}) }},
				Protocol:     era,
				Capabilities: CapabilityOptions{FormElicitation: true},
				Asker: askerFunc(func(_ context.Context, r *NativeRequest) (*mcp.ElicitResult, error) {
					asked = append(asked, r)
					return &mcp.ElicitResult{Action: "accept"}, nil
				}),
				Records: records,
			})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_, err = conn.Call(t.Context(), "url_required", nil)
			u, ok, bad := URLRequiredOf(err)
			if !ok || bad != nil || len(u.Elicitations) != 1 {
				t.Fatalf("URLRequiredOf(%v) = %+v, %v, %v", err, u, ok, bad)
			}
			res, err := conn.AskURLs(t.Context(), "tools/call url_required", u)
			if err != nil || len(res) != 1 || res[0].Action != "accept" {
				t.Fatalf("AskURLs = %v, %v", res, err)
			}
			p := u.Elicitations[0]
			if len(asked) != 1 || asked[0].Refused != "tools/call url_required" || asked[0].Params.URL != p.URL || asked[0].Schema != nil {
				t.Errorf("the asker got %+v", asked)
			}
			recs := records.Records()
			if len(recs) != 1 || recs[0].Mode != "url" || recs[0].Path != PathURL || recs[0].Action != "accept" ||
				!strings.Contains(string(recs[0].Request), p.URL) {
				t.Errorf("records = %+v", recs)
			}
			if _, err := conn.Call(t.Context(), "url_required", nil); err != nil {
				t.Errorf("the call made again: %v", err)
			}
		})
	}
}

// What is not a -32042, or is one the person cannot act on, says so.
func TestURLRequiredOf(t *testing.T) {
	rpc := func(data string) error {
		return &jsonrpc.Error{Code: mcp.CodeURLElicitationRequired, Message: "URL elicitation required", Data: json.RawMessage(data)}
	}
	many := `{"elicitations":[` + strings.Repeat(`{"mode":"url","url":"https://a.example/","message":"m","elicitationId":"x"},`, 10)
	many = strings.TrimSuffix(many, ",") + `]}`
	for _, tc := range []struct {
		name    string
		err     error
		ok      bool
		bad     string
		n, drop int
	}{
		{"another error", &jsonrpc.Error{Code: -32602, Message: "invalid"}, false, "", 0, 0},
		{"no error", nil, false, "", 0, 0},
		{"one page", rpc(`{"elicitations":[{"mode":"url","url":"https://a.example/","message":"m","elicitationId":"x"}]}`), true, "", 1, 0},
		{"no data", rpc(``), true, "no readable", 0, 0},
		{"no pages", rpc(`{"elicitations":[]}`), true, "names no page", 0, 0},
		{"a form", rpc(`{"elicitations":[{"mode":"form","message":"m"}]}`), true, "not a url-mode", 0, 0},
		{"too many", rpc(many), true, "", maxURLsRequired, 10 - maxURLsRequired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, ok, bad := URLRequiredOf(tc.err)
			if ok != tc.ok || (bad == nil) != (tc.bad == "") || bad != nil && !strings.Contains(bad.Error(), tc.bad) {
				t.Fatalf("ok %v, bad %v; want %v, %q", ok, bad, tc.ok, tc.bad)
			}
			if tc.n > 0 && (len(u.Elicitations) != tc.n || u.Dropped != tc.drop) {
				t.Errorf("%d pages, %d dropped; want %d, %d", len(u.Elicitations), u.Dropped, tc.n, tc.drop)
			}
		})
	}
}
