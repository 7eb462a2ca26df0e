package proxy

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// A stdio proxy's messages logged aside are logged, paired and noted as
// they are at once, in the same order, whatever the queue's bounds make
// it do on the forwarding path instead (a big message, a full queue).
func TestProxyLogAsideKeepsWhatAndTheOrder(t *testing.T) {
	var msgs [][2]string
	big := `{"jsonrpc":"2.0","id":"big","result":{"text":"` + strings.Repeat("x", maxAsideMessage) + `"}}`
	for i := range 3 * maxAsideItems {
		msgs = append(msgs, [2]string{"send", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i)})
		if i%3 == 0 {
			msgs = append(msgs, [2]string{"recv", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, i)})
		}
		if i%1000 == 0 {
			msgs = append(msgs, [2]string{"send", "not json"}, [2]string{"recv", big}, [2]string{"recv", `{"jsonrpc":"2.0","id":"nobody","result":{}}`})
		}
	}
	run := func(aside bool) (string, []string) {
		var sink bytes.Buffer
		tr := newTracker(mcpclient.NewWireLog(0, &sink), nil, "stdio")
		stop := func() {}
		if aside {
			stop = tr.logAside()
		}
		buf := make([]byte, 0, len(big)) // reused, as the line reader's
		for _, m := range msgs {
			buf = append(buf[:0], m[1]...)
			if m[0] == "send" {
				tr.fromHost(buf)
			} else {
				tr.fromServer(buf)
			}
			clear(buf)
			tr.forwarded()
		}
		open := tr.hostOpen()
		stop()
		var lines []string
		for l := range strings.Lines(sink.String()) {
			_, l, _ = strings.Cut(l, `"dir"`) // the time differs
			lines = append(lines, l)
		}
		return strings.Join(lines, ""), open
	}
	wantLog, wantOpen := run(false)
	gotLog, gotOpen := run(true)
	if gotLog != wantLog {
		t.Errorf("the wire log logged aside differs (%d bytes, want %d)", len(gotLog), len(wantLog))
	}
	if fmt.Sprint(gotOpen) != fmt.Sprint(wantOpen) {
		t.Errorf("open requests aside: %d, want %d", len(gotOpen), len(wantOpen))
	}
	if !strings.Contains(gotLog, "answered id \\\"nobody\\\"") || !strings.Contains(gotLog, "not a JSON message") {
		t.Error("the notes are missing")
	}
}
