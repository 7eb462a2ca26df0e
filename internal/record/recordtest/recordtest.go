// Package recordtest writes recordings for tests, as --record would have
// written them.
package recordtest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// Write writes a 2025-11-25 recording of the given messages, each after
// its direction ("send" or "recv"), to session.jsonl in dir (0600), and
// returns its path.
func Write(t testing.TB, dir string, lines ...string) string {
	t.Helper()
	var b bytes.Buffer
	w := record.NewWriter(&b)
	if err := w.Start(record.Header{Protocol: "2025-11-25", Transport: "stdio"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(lines); i += 2 {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.Unmarshal([]byte(lines[i+1]), &m); err != nil {
			t.Fatal(err)
		}
		line, err := mcpclient.WireEntry{Dir: mcpclient.Direction(lines[i]), Method: m.Method, ID: m.ID, Message: json.RawMessage(lines[i+1])}.Line()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
