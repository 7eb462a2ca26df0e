package record

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
)

func TestWriterKeepsTheHandshakeUntilTheHeader(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	wire := mcpclient.NewWireLog(0, w)
	wire.Note("before the header")
	if buf.Len() != 0 {
		t.Fatalf("written before the header: %q", buf.String())
	}
	if err := w.Start(Header{Protocol: "2025-11-25", Transport: "stdio", ServerInfo: json.RawMessage(`{"name":"s"}`)}); err != nil {
		t.Fatal(err)
	}
	wire.Note("after the header")
	if err := w.Annotate(Answer{Method: "elicitation/create", ID: json.RawMessage(`3`), By: "form"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	h, entries, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if h.Recording != FormatVersion || h.Protocol != "2025-11-25" || string(h.ServerInfo) != `{"name":"s"}` || h.Started.IsZero() {
		t.Errorf("header = %+v", h)
	}
	if len(entries) != 3 || entries[0].Text != "before the header" || entries[1].Text != "after the header" {
		t.Fatalf("entries = %+v", entries)
	}
	if a := entries[2].Answer; entries[2].Dir != DirAnswer || a == nil || a.By != "form" || string(a.ID) != "3" {
		t.Errorf("answer = %+v", entries[2])
	}
}

func TestCloseBeforeTheHeaderSaysSo(t *testing.T) {
	w := NewWriter(&bytes.Buffer{})
	_, _ = w.Write([]byte("{}\n"))
	if err := w.Close(); err != ErrNotStarted {
		t.Errorf("Close = %v, want ErrNotStarted", err)
	}
}

func TestReadRefusesWhatIsNotARecording(t *testing.T) {
	now := time.Now().Format(time.RFC3339)
	for name, c := range map[string]struct{ in, want string }{
		"empty":    {"", "empty"},
		"wire log": {`{"time":"` + now + `","dir":"note","text":"x"}` + "\n", "not a recording header"},
		"not json": {"hello\n", "not a recording header"},
		"newer":    {`{"mcpeekRecording":2,"protocol":"2025-11-25"}` + "\n", "newer mcpeek"},
		"bad line": {`{"mcpeekRecording":1}` + "\n{\n", "line 2"},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := Read(strings.NewReader(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Read = %v, want an error saying %q", err, c.want)
			}
		})
	}
}

func TestReadSkipsUnknownDirs(t *testing.T) {
	in := `{"mcpeekRecording":1,"protocol":"2026-07-28"}
{"time":"2026-01-01T00:00:00Z","dir":"future","text":"?"}
{"time":"2026-01-01T00:00:00Z","dir":"send","method":"tools/list","id":1,"message":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}`
	h, entries, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if h.Protocol != "2026-07-28" || len(entries) != 1 || entries[0].Method != "tools/list" || string(entries[0].ID) != "1" {
		t.Errorf("got %+v %+v", h, entries)
	}
}

func TestReadFileNamesTheFile(t *testing.T) {
	path := t.TempDir() + "/x.jsonl"
	if _, _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), "x.jsonl") {
		t.Errorf("ReadFile = %v", err)
	}
}
