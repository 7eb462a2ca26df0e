package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// Messages are read whole up to the limit; a longer one is skipped to
// its end, only its start kept, and the next is read as usual.
func TestProxyLineReaderBoundsMessages(t *testing.T) {
	long := `{"id":7,"pad":"` + strings.Repeat("x", 100) + `"}`
	lr := newLineReader(strings.NewReader("{\"a\":1}\n"+long+"\n{\"b\":2}"), 32)
	var got []string
	for {
		l, err := lr.next()
		switch {
		case l.tooLong:
			if l.size != int64(len(long)+1) || idOf(l.start) != "7" {
				t.Errorf("the long message: size %d, id %q", l.size, idOf(l.start))
			}
			got = append(got, "too long")
		case len(l.data) > 0:
			got = append(got, string(l.data))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"{\"a\":1}\n", "too long", "{\"b\":2}"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("read %q, want %q", got, want)
	}
}

// The id of a message too long to read is found when it comes early.
func TestProxyIDOfAMessageStart(t *testing.T) {
	for start, want := range map[string]string{
		`{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"x":"yyy`: `"a-1"`,
		`{"jsonrpc":"2.0","method":"tools/call","params":{"x":"yyy`:            "",
		`not json`: "",
	} {
		if got := idOf([]byte(start)); got != want {
			t.Errorf("idOf(%s) = %q, want %q", start, got, want)
		}
	}
}

// handshakes are a legacy and a modern handshake, as the host and server
// send them.
var handshakes = map[string][][2]string{
	"2025-11-25": {
		{"send", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"host","version":"1"}}}`},
		{"recv", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"srv","version":"2"}}}`},
		{"send", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	},
	"2026-07-28": {
		{"send", `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"host","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}`},
		{"recv", `{"jsonrpc":"2.0","id":"d","result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"2"}}}}`},
	},
}

// The recording's header says what the host's handshake said, in both
// eras, and is written once the handshake is done, before its messages.
func TestProxyRecordingHeaderFromTheHandshake(t *testing.T) {
	for revision, msgs := range handshakes {
		var out bytes.Buffer
		w := record.NewWriter(&out)
		wire := mcpclient.NewWireLog(0, nil)
		wire.Tap(w)
		tr := newTracker(wire, w, "stdio")
		for _, m := range msgs {
			if w.Started() {
				t.Fatalf("%s: the header was written before the handshake ended", revision)
			}
			if m[0] == "send" {
				tr.fromHost([]byte(m[1] + "\n"))
			} else {
				tr.fromServer([]byte(m[1] + "\n"))
			}
		}
		h, entries, err := record.Read(&out)
		if err != nil {
			t.Fatalf("%s: %v\n%s", revision, err, out.String())
		}
		if h.Protocol != revision || h.Transport != "stdio" || !strings.Contains(string(h.ClientInfo), `"host"`) ||
			!strings.Contains(string(h.ServerInfo), `"srv"`) || string(h.ClientCapabilities) != `{"elicitation":{}}` || string(h.ServerCapabilities) != `{"tools":{}}` {
			t.Errorf("%s: header %+v", revision, h)
		}
		if len(entries) != len(msgs) {
			t.Errorf("%s: %d entries after the header, want %d", revision, len(entries), len(msgs))
		}
	}
}

// An answer to an id the other side never asked is forwarded and noted;
// the host's open requests are those not answered yet.
func TestProxyTracksRequestsBothWays(t *testing.T) {
	var sink bytes.Buffer
	wire := mcpclient.NewWireLog(0, &sink)
	tr := newTracker(wire, nil, "stdio")
	tr.fromHost([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	tr.fromHost([]byte(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]`))
	tr.fromServer([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	tr.fromServer([]byte(`{"jsonrpc":"2.0","id":5,"result":{}}`))
	tr.fromServer([]byte(`{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{}}`))
	tr.fromHost([]byte(`{"jsonrpc":"2.0","id":"s1","result":{"action":"cancel"}}`))
	if open := tr.hostOpen(); len(open) != 1 || open[0] != "2" {
		t.Errorf("the host's open requests: %v, want [2]", open)
	}
	if !strings.Contains(sink.String(), "the server answered id 5, which the host did not ask") {
		t.Errorf("the unknown answer is not noted:\n%s", sink.String())
	}
	if strings.Contains(sink.String(), "answered id \\\"s1\\\"") || strings.Contains(sink.String(), "answered id 1,") {
		t.Errorf("a paired answer is noted as unknown:\n%s", sink.String())
	}
	if n := strings.Count(sink.String(), `"dir":"send"`); n != 4 {
		t.Errorf("%d messages from the host logged, want 4 (a batch's each)", n)
	}
}

// Each event of a stream is logged as it goes by, whatever the chunks
// it arrives in; one over the limit is noted and not logged.
func TestProxySSETapLogsEachEvent(t *testing.T) {
	stream := "event: message\ndata: {\"id\":1}\n\n: comment\ndata: {\"id\":2,\r\ndata: \"x\":1}\r\n\r\ndata: " + strings.Repeat("z", 100) + "\n\nid: 3\ndata: {\"id\":3}\n\n"
	var events, notes []string
	tap := &sseTap{ReadCloser: io.NopCloser(strings.NewReader(stream)), max: 64,
		event: func(b []byte) { events = append(events, string(b)) }, note: func(s string) { notes = append(notes, s) }}
	buf := make([]byte, 5)
	var got bytes.Buffer
	for {
		n, err := tap.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if got.String() != stream {
		t.Errorf("the stream was changed: %q", got.String())
	}
	want := []string{`{"id":1}`, "{\"id\":2,\n\"x\":1}", `{"id":3}`}
	if strings.Join(events, "|") != strings.Join(want, "|") || len(notes) != 1 {
		t.Errorf("events %q (want %q), notes %q", events, want, notes)
	}
}

// Wrap routes a command's entry through mcpeek proxy and a URL's to the
// proxy's address, leaving what the host expands as it was.
func TestWrapEntries(t *testing.T) {
	stdio := &mcpconfig.Server{Name: "s", Command: "npx", Args: []string{"-y", "srv"}, Env: map[string]string{"K": "${K}"}}
	w, start, err := Wrap(stdio, "/bin/mcpeek", "127.0.0.1:1")
	if err != nil || start != nil || w.Command != "/bin/mcpeek" || strings.Join(w.Args, " ") != "proxy --name s -- npx -y srv" || w.Env["K"] != "${K}" {
		t.Errorf("stdio: %+v %v %v", w, start, err)
	}
	if _, _, err := Wrap(w, "/bin/mcpeek", "127.0.0.1:1"); err == nil {
		t.Error("an entry already through the proxy is wrapped again")
	}
	url := &mcpconfig.Server{Name: "u", Type: "http", URL: "https://h.example/mcp/x?k=1", Headers: map[string]string{"Authorization": "Bearer ${T}"}}
	w, start, err = Wrap(url, "/bin/mcpeek", "127.0.0.1:9")
	if err != nil || w.URL != "http://127.0.0.1:9/mcp/x?k=1" || w.Headers["Authorization"] != "Bearer ${T}" ||
		strings.Join(start, " ") != "/bin/mcpeek proxy --listen 127.0.0.1:9 --name u -- https://h.example/mcp/x?k=1" {
		t.Errorf("url: %+v %v %v", w, start, err)
	}
	if _, _, err := Wrap(&mcpconfig.Server{Name: "old", Type: "sse", URL: "https://h.example/sse"}, "/bin/mcpeek", "x"); err == nil {
		t.Error("an SSE server is wrapped")
	}
}

// errorResponse is one JSON line.
func TestProxyErrorResponse(t *testing.T) {
	line := errorResponse(`"a"`, codeServerGone, "gone \"quoted\"\n")
	var m map[string]any
	if !bytes.HasSuffix(line, []byte("}\n")) || bytes.Count(line, []byte("\n")) != 1 || json.Unmarshal(line, &m) != nil {
		t.Errorf("%q", line)
	}
}

// A message longer than the reader's buffer is read whole through its
// stage, however many blocks it takes; one that grows over the limit while
// staged keeps its start.
func TestProxyLineReaderStagesLongMessages(t *testing.T) {
	var sb strings.Builder
	for i := 0; sb.Len() < 3*stageBlockSize+12345; i++ {
		fmt.Fprintf(&sb, "%08d", i)
	}
	long := `{"id":9,"pad":"` + sb.String() + `"}` + "\n"
	lr := newLineReader(strings.NewReader(long+long+"{}\n"), int64(len(long)))
	for i := range 2 {
		l, err := lr.next()
		if err != nil || l.tooLong || string(l.data) != long {
			t.Fatalf("message %d: %d bytes (too long: %v), %v; want it whole", i, len(l.data), l.tooLong, err)
		}
	}
	lr = newLineReader(strings.NewReader(long+"{}\n"), int64(len(long))-10)
	l, err := lr.next()
	if err != nil || !l.tooLong || l.size != int64(len(long)) || string(l.start) != long[:keptStart] {
		t.Fatalf("a message over the limit: too long %v, size %d, start %q…, %v", l.tooLong, l.size, l.start[:min(len(l.start), 20)], err)
	}
	if l, err := lr.next(); err != nil || string(l.data) != "{}\n" {
		t.Errorf("the next message: %q, %v", l.data, err)
	}
}
