package tui

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// y puts the pane's text on the clipboard: the program writes the OSC 52
// sequence to the terminal, carrying the text without its styling. On the
// Log tab's list it copies the message under the cursor, pretty-printed.
func TestCopyWritesOSC52(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		keys  []string
		ready string
		then  []string // keys once ready, before y
		want  []string
	}{
		{"tool result", []string{"enter"}, "result of alpha", nil, []string{"result of alpha", "Describes tool A."}},
		// The Log tab follows new lines, and a notification may come last:
		// g pauses it on the first entry, the one copied.
		{"log message", []string{"5"}, "← tools/list #3 result", []string{"g"}, []string{"→ server/discover #1", `"jsonrpc": "2.0"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Connect: inMemory(pagerServer, "")}, 100, 30).expect("long")
			in.keys(tc.keys...).expect(tc.ready).keys(tc.then...)
			text := copied(t, in)
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("copied %q, want it to hold %q", text, w)
				}
			}
			if strings.ContainsRune(text, '\x1b') {
				t.Errorf("copied %q, with styling", text)
			}
			wantOnScreen(t, in.screen(), "copied", "with OSC 52 (if the terminal supports it)")
		})
	}
}

// copied types y, waits for the OSC 52 sequence in the program's output
// and returns the text it carries.
func copied(t *testing.T, in *inspector) string {
	t.Helper()
	var all bytes.Buffer // every byte written: the sequence may come before the frame of y, which drops what came before
	in.keepWritten(&all)
	defer in.keepWritten(nil)
	in.keys("y")
	seq := regexp.MustCompile("\x1b\\]52;c;([A-Za-z0-9+/=]*)\a")
	var out []byte
	eventually(t, "an OSC 52 sequence written", func() bool {
		in.output()
		in.mu.Lock()
		defer in.mu.Unlock()
		out = bytes.Clone(all.Bytes())
		return seq.Find(out) != nil
	})
	b64 := seq.FindSubmatch(out)[1]
	text, err := base64.StdEncoding.DecodeString(string(b64))
	if err != nil {
		t.Fatalf("the sequence carries %q: %v", b64, err)
	}
	return string(text)
}

// w asks for a file name and writes the pane's text there, readable by
// its owner only.
func TestSaveWritesThePaneToAFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "result.txt")
	in := open(t, Options{Connect: inMemory(pagerServer, "")}, 100, 30).expect("long")
	in.keys("enter").expect("result of alpha").keys("w").expect("save to:")
	in.keys("ctrl+u")
	in.tm.Type(path)
	in.keys("enter").expect("saved")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "result of alpha") || strings.ContainsRune(string(got), '\x1b') {
		t.Errorf("the file holds %q, want the pane's text without styling", got)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode is %v (%v), want 0600", fi.Mode().Perm(), err)
	}
}
