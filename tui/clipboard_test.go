package tui

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
)

// y puts the pane's text on the clipboard: the program writes the OSC 52
// sequence to the terminal, carrying the text without its styling.
func TestCopyWritesOSC52(t *testing.T) {
	in := open(t, Options{Connect: inMemory(pagerServer, "")}, 100, 30).expect("long")
	in.keys("enter").expect("result of alpha").keys("y")
	seq := regexp.MustCompile("\x1b\\]52;c;([A-Za-z0-9+/=]*)\a")
	var copied []byte
	teatest.WaitFor(t, in.tm.Output(), func(b []byte) bool {
		if s := seq.FindSubmatch(b); s != nil {
			copied = s[1]
			return true
		}
		return false
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	text, err := base64.StdEncoding.DecodeString(string(copied))
	if err != nil {
		t.Fatalf("the sequence carries %q: %v", copied, err)
	}
	if !bytes.Contains(text, []byte("result of alpha")) || !bytes.Contains(text, []byte("Describes tool A.")) || bytes.ContainsRune(text, '\x1b') {
		t.Errorf("copied %q, want the pane's text without styling", text)
	}
	wantOnScreen(t, in.screen(), "copied", "with OSC 52 (if the terminal supports it)")
}

// w asks for a file name and writes the pane's text there, readable by
// its owner only.
func TestSaveWritesThePaneToAFile(t *testing.T) {
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
