package mcpclient

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The fuzz targets here cover what mcpclient reads from outside: the
// resource URI a server names for its app, and the answers file a script
// hands to a headless run. Run one with
//
//	go test -run='^$' -fuzz='^FuzzResourceURI$' -fuzztime=60s -fuzzminimizetime=20x ./mcpclient
//
// The short -fuzzminimizetime keeps the fuzzer fuzzing: coverage here
// varies a little from run to run (map order inside encoding/json and the
// validator), and the default minimization, a minute per new input, would
// stall it for most of a short run.
//
// Seeds live in testdata/fuzz/<FuzzName>/ and below in f.Add; a crasher
// the fuzzer finds is kept there so that plain `go test` replays it.

// resourceURISeeds are the cases of TestValidateResourceURI and TestAppGate,
// and the tricks a server might try.
var resourceURISeeds = []string{
	"ui://fixture/choose-option.html", "ui://example/choose-option", "ui://x", "", "ui:///x", "ui:x",
	"choose-option.html", "/choose-option.html", "https://example.com/app.html", "UI://x/y",
	"ui://fix ture/app", " ui://fixture/app", "ui://fixture/app\n", "ui://%zz/app",
	"ui://:80/app", "ui://user@/app", "ui://user:pw@host:1/a/../b?q=1#f", "ui://[::1]/app",
	"//fixture/app", "./ui://fixture/app", "ui:/fixture/app", "ui:\\\\fixture\\app", "ui://host/\u0085",
	"ui://ho%C3%A9st/app", "ui://fixture/app\x7f", "javascript:alert(1)//ui://x",
}

// openGates are capabilities under which only the fourth app gate, the
// resource URI, decides.
func openGates() (*mcp.ClientCapabilities, *mcp.ServerCapabilities) {
	return Capabilities(CapabilityOptions{FormElicitation: true, AppHostUp: true}),
		&mcp.ServerCapabilities{Extensions: map[string]any{UIExtension: map[string]any{"elicitation": map[string]any{}}}}
}

func FuzzResourceURI(f *testing.F) {
	for _, s := range resourceURISeeds {
		f.Add(s)
	}
	client, server := openGates()
	f.Fuzz(func(t *testing.T, s string) {
		err := ValidateResourceURI(s)
		if again := ValidateResourceURI(s); (again == nil) != (err == nil) {
			t.Fatalf("ValidateResourceURI(%q) is not deterministic: %v, then %v", s, err, again)
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("ValidateResourceURI(%q) failed without saying why", s)
			}
		} else {
			checkAcceptedURI(t, s)
		}

		// The same string as a server sends it: the gate takes it iff
		// ValidateResourceURI does, and hands it on unchanged.
		b, merr := json.Marshal(map[string]any{"message": "m", "_meta": map[string]any{"ui": map[string]any{"resourceUri": s}}})
		if merr != nil {
			t.Fatal(merr)
		}
		var p mcp.ElicitParams
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatalf("decode %s: %v", b, err)
		}
		wire, _ := p.Meta["ui"].(map[string]any)["resourceUri"].(string) // s, with invalid UTF-8 replaced
		reason, uri := AppGate(client, server, &p)
		switch {
		case ValidateResourceURI(wire) == nil:
			if reason != FallbackNone || uri != wire {
				t.Fatalf("AppGate(%q) = %q, %q; want the app path with the URI unchanged", wire, reason, uri)
			}
		default:
			if reason != FallbackInvalidResourceURI || uri != "" {
				t.Fatalf("AppGate(%q) = %q, %q; want %q", wire, reason, uri, FallbackInvalidResourceURI)
			}
			checkLogged(t, &p, wire)
		}
		if got := (&NativeRequest{Params: &p}).ResourceURI(); got != wire {
			t.Fatalf("NativeRequest.ResourceURI() = %q, want %q", got, wire)
		}
	})
}

// FuzzResourceURIParams decodes arbitrary elicitation params, as the SDK
// does, and checks how the router finds _meta.ui.resourceUri in them.
func FuzzResourceURIParams(f *testing.F) {
	for _, s := range []string{
		`{"message":"m","_meta":{"ui":{"resourceUri":"ui://fixture/choose-option.html"}}}`,
		`{"message":"m","requestedSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":"ui://a/b"},"other":1}}`,
		`{"message":"m"}`,
		`{"_meta":null}`,
		`{"_meta":{"ui":null}}`,
		`{"_meta":{"ui":[]}}`,
		`{"_meta":{"ui":{}}}`,
		`{"_meta":{"ui":{"resourceUri":null}}}`,
		`{"_meta":{"ui":{"resourceUri":42}}}`,
		`{"_meta":{"ui":{"resourceUri":["ui://a/b"]}}}`,
		`{"_meta":{"ui":{"resourceUri":{"uri":"ui://a/b"}}}}`,
		`{"_meta":{"ui":{"resourceUri":"choose-option.html"}}}`,
		`{"_meta":{"ui":{"resourceUri":"ui://a/b","resourceUri":"https://evil.example/"}}}`,
		`{"_meta":{"ui":{"resourceUri":"ui://a/\u001b[2J"}}}`,
		`{"_meta":{"ui":{"resourceUri":"ui://a/b"}},"_META":{"ui":{"resourceUri":"x"}}}`,
		`{"_meta":{"ui":{"resourceUri":"\ud800"}}}`,
	} {
		f.Add([]byte(s))
	}
	client, server := openGates()
	f.Fuzz(func(t *testing.T, raw []byte) {
		var p mcp.ElicitParams
		if json.Unmarshal(raw, &p) != nil {
			return
		}
		v, present := resourceURIValue(&p)
		ui, _ := p.Meta["ui"].(map[string]any)
		wire, hasKey := ui["resourceUri"]
		if present != hasKey {
			t.Fatalf("resourceURIValue present = %v, but _meta.ui has resourceUri: %v", present, hasKey)
		}
		if s, isString := wire.(string); isString && v != s || !isString && v != "" {
			t.Fatalf("resourceURIValue = %q for resourceUri %#v", v, wire)
		}
		reason, uri := AppGate(client, server, &p)
		switch {
		case !present:
			if reason != FallbackNoResourceURI || uri != "" {
				t.Fatalf("AppGate = %q, %q without a resourceUri; want %q", reason, uri, FallbackNoResourceURI)
			}
		case ValidateResourceURI(v) == nil:
			if _, isString := wire.(string); !isString {
				t.Fatalf("AppGate took resourceUri %#v, which is not a string", wire)
			}
			if reason != FallbackNone || uri != v {
				t.Fatalf("AppGate = %q, %q; want the app path with %q", reason, uri, v)
			}
			checkAcceptedURI(t, uri)
		default:
			if reason != FallbackInvalidResourceURI || uri != "" {
				t.Fatalf("AppGate = %q, %q for resourceUri %#v; want %q", reason, uri, wire, FallbackInvalidResourceURI)
			}
			checkLogged(t, &p, wire)
		}
		if got := (&NativeRequest{Params: &p}).ResourceURI(); got != v {
			t.Fatalf("NativeRequest.ResourceURI() = %q, want %q", got, v)
		}
		// The gate reads the params; it must not change what is forwarded.
		before, _ := json.Marshal(&p)
		AppGate(client, server, &p)
		if after, _ := json.Marshal(&p); !bytes.Equal(before, after) {
			t.Fatalf("AppGate changed the params:\n%s\n%s", before, after)
		}
	})
}

// checkAcceptedURI holds an accepted resource URI to app gate 4
// (docs/architecture.md, "The path of one elicitation"): an absolute ui://
// URI with a non-empty host, and nothing a reader could take for something
// else.
func checkAcceptedURI(t *testing.T, s string) {
	t.Helper()
	if len(s) < len("ui://") || !strings.EqualFold(s[:len("ui://")], "ui://") {
		t.Fatalf("accepted %q, which does not start with ui://", s)
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }); i >= 0 {
		t.Fatalf("accepted %q, which has whitespace or a control character at %d", s, i)
	}
	u, err := url.Parse(s)
	if err != nil {
		t.Fatalf("accepted %q, which does not parse: %v", s, err)
	}
	if !u.IsAbs() || !strings.EqualFold(u.Scheme, "ui") || u.Opaque != "" {
		t.Fatalf("accepted %q: scheme %q, opaque %q", s, u.Scheme, u.Opaque)
	}
	if u.Hostname() == "" {
		t.Fatalf("accepted %q, whose host is empty (authority %q)", s, u.Host)
	}
	if u.Path != "" && !strings.HasPrefix(u.Path, "/") {
		t.Fatalf("accepted %q with a relative path %q", s, u.Path)
	}
	// What Go makes of it is itself a URI the gate accepts, for the same host.
	again := u.String()
	if err := ValidateResourceURI(again); err != nil {
		t.Fatalf("accepted %q, but not its own re-encoding %q: %v", s, again, err)
	}
	if v, _ := url.Parse(again); v.Host != u.Host {
		t.Fatalf("%q re-encodes as %q, with host %q instead of %q", s, again, v.Host, u.Host)
	}
}

// checkLogged checks the note the router writes for an invalid URI: the
// value as JSON, so the log shows exactly what the server sent.
func checkLogged(t *testing.T, p *mcp.ElicitParams, wire any) {
	t.Helper()
	logged := rawResourceURI(p)
	if !json.Valid([]byte(logged)) {
		t.Fatalf("rawResourceURI = %q, not JSON", logged)
	}
	if strings.ContainsFunc(logged, func(r rune) bool { return r < 0x20 }) {
		t.Fatalf("rawResourceURI = %q, with a raw control character", logged)
	}
	var back any
	if err := json.Unmarshal([]byte(logged), &back); err != nil || !reflect.DeepEqual(back, wire) {
		t.Fatalf("rawResourceURI = %s, which reads back as %#v, not %#v", logged, back, wire)
	}
}

func FuzzParseAnswers(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "answers", "*.json"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		`[]`,
		`[{"match":{},"action":"cancel"}]`,
		`[{"match":{"message":"x","resourceUri":"ui://a/b"},"action":"accept","content":{"a":1}}]`,
		`{}`,
		`[{"action":"accept"`,
		`[{"match":{},"action":"maybe"}]`,
		`[{"match":{}}]`,
		`[{"match":{},"action":"decline","content":{"a":1}}]`,
		`[{"match":{},"action":"decline","content":null}]`,
		`[{"match":{},"action":"accept","content":{}}]`,
		`[{"match":{"msg":"x"},"action":"cancel"}]`,
		`[] []`,
		`[]]`,
		`[{"match":{},"action":"accept","content":{"n":1e400}}]`,
		`[{"Action":"decline","MATCH":{"Message":"x"}}]`,
		`[{"action":"accept","action":"decline","content":{"a":1}}]`,
		"\ufeff[]",
		`[{"method":"sampling/createMessage","match":{"message":"T-7"},"result":{"content":{"type":"text","text":"hi"}}}]`,
		`[{"method":"sampling/createMessage","result":{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"model":"m","stopReason":"endTurn"}}]`,
		`[{"method":"sampling/createMessage","action":"reject"}]`,
		`[{"method":"sampling/createMessage","action":"reject","result":{"content":{"type":"text","text":"x"}}}]`,
		`[{"method":"sampling/createMessage","result":{"content":{"type":"video"}}}]`,
		`[{"method":"sampling/createMessage","result":{"role":"system","content":{"type":"text","text":"x"}}}]`,
		`[{"method":"sampling/createMessage","result":{"content":null}}]`,
		`[{"method":"sampling/createMessage","content":{"a":1},"result":{"content":{"type":"text","text":"x"}}}]`,
		`[{"method":"elicitation/create","action":"accept","result":{"content":{"type":"text","text":"x"}}}]`,
		`[{"method":"roots/list","action":"accept"}]`,
		`[{"method":"sampling/createMessage","result":{"content":{"type":"text","text":"x"},"temperature":1}}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		answers, err := ParseAnswers(data)
		again, err2 := ParseAnswers(data)
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() || !reflect.DeepEqual(answers, again) {
			t.Fatalf("ParseAnswers is not deterministic: %v, %v", err, err2)
		}
		if err != nil {
			if answers != nil {
				t.Fatalf("ParseAnswers returned %d answers with its error %v", len(answers), err)
			}
			return
		}
		if answers == nil {
			t.Fatal("ParseAnswers accepted a file without returning a list")
		}
		// An accepted file is exactly one JSON array, whitespace around it.
		if trimmed := bytes.TrimSpace(data); !json.Valid(data) || len(trimmed) == 0 || trimmed[0] != '[' {
			t.Fatalf("ParseAnswers accepted %q, which is not one JSON array", data)
		}
		for i, a := range answers {
			checkFuzzedAnswer(t, i, a)
		}
		// Written out and read back, the file means the same.
		out, err := json.Marshal(answers)
		if err != nil {
			t.Fatalf("accepted answers do not encode: %v", err)
		}
		back, err := ParseAnswers(out)
		if err != nil {
			t.Fatalf("ParseAnswers refuses its own answers re-encoded as %s: %v", out, err)
		}
		if len(back) != len(answers) {
			t.Fatalf("re-encoded answers: %d entries, want %d", len(back), len(answers))
		}
		for i := range answers {
			a, b := answers[i], back[i]
			if len(a.Content) == 0 && len(b.Content) == 0 { // nil and {} both send {}
				a.Content, b.Content = nil, nil
			}
			if a.Result != nil && b.Result != nil { // the reply's content is kept as written; re-encoding compacts it
				ra, rb := *a.Result, *b.Result
				ra.Content, rb.Content = compactJSON(t, ra.Content), compactJSON(t, rb.Content)
				a.Result, b.Result = &ra, &rb
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("entry %d reads back as %#v, want %#v", i+1, b, a)
			}
		}
	})
}

// checkFuzzedAnswer checks an accepted entry against the format: an
// elicitation's action with content only on accept; a sampling entry's
// reply that decodes, or reject without one.
func checkFuzzedAnswer(t *testing.T, i int, a Answer) {
	t.Helper()
	switch a.method() {
	case MethodElicit:
		if a.Result != nil {
			t.Fatalf("entry %d: an elicitation with a result", i+1)
		}
		switch a.Action {
		case "accept":
		case "decline", "cancel":
			if a.Content != nil {
				t.Fatalf("entry %d: %s with content %v", i+1, a.Action, a.Content)
			}
		default:
			t.Fatalf("entry %d: action %q", i+1, a.Action)
		}
	case MethodSample:
		if a.Content != nil || a.Match.ResourceURI != "" {
			t.Fatalf("entry %d: a sampling entry with content or a resource URI", i+1)
		}
		switch {
		case a.Action == "reject" && a.Result == nil:
		case (a.Action == "" || a.Action == "accept") && a.Result != nil:
			reply, err := a.Result.reply()
			if err != nil || reply.Model == "" || reply.Role == "" || len(reply.Content) == 0 {
				t.Fatalf("entry %d: accepted reply %+v does not decode whole: %v", i+1, reply, err)
			}
		default:
			t.Fatalf("entry %d: sampling action %q with result %v", i+1, a.Action, a.Result)
		}
	default:
		t.Fatalf("entry %d: method %q", i+1, a.Method)
	}
}

// compactJSON is raw in one spelling (re-encoding escapes & < > in
// strings, and compacts), so that two spellings of one value compare equal.
func compactJSON(t *testing.T, raw json.RawMessage) json.RawMessage {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("kept content %q is not JSON: %v", raw, err)
	}
	b, _ := json.Marshal(v)
	return b
}
