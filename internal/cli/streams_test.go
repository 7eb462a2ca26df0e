package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// fileIn is standard input from a file that holds typed.
func fileIn(t *testing.T, typed string) *os.File {
	path := filepath.Join(t.TempDir(), "stdin")
	f, err := os.Create(path)
	if err == nil {
		_, err = f.WriteString(typed)
		_, _ = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestCommandsReadTheirStreams: a command reads standard input through
// the streams it is given, not the process's: answers given in the
// streams answer call --interactive's plain prompts (stdin is no
// terminal), while the process's own stdin is never read.
func TestCommandsReadTheirStreams(t *testing.T) {
	stdin := os.Stdin
	os.Stdin = fileIn(t, "b\n2\n") // would answer option-b, were it read
	defer func() { os.Stdin = stdin }()
	var out, errb bytes.Buffer
	s := newStreams(fileIn(t, "a\n1\n"), &out, &errb, &mcpclient.Secrets{})
	if s.isStdinTTY() || s.interactive() {
		t.Fatal("a pipe taken for a terminal")
	}
	err := dispatch(context.Background(), []string{"call", "choose_option", "--interactive", "--timeout", "30s"}, s)
	if code := report(context.Background(), err, &errb); code != exitOK || !strings.Contains(out.String(), `"option-a"`) {
		t.Errorf("exit %d, stdout %s, stderr %s", code, out.String(), errb.String())
	}
}

// TestPastedLinesOneReader: a pasted authorization redirect is read a line
// at a time from the run's standard input, by one reader whoever asks;
// its end is io.EOF, and a run with no standard input has none to read.
func TestPastedLinesOneReader(t *testing.T) {
	s := newStreams(fileIn(t, "http://127.0.0.1/cb?code=1\nsecond\n"), io.Discard, io.Discard, &mcpclient.Secrets{})
	for _, want := range []string{"http://127.0.0.1/cb?code=1", "second"} {
		if line, err := s.pasteLine(t.Context()); err != nil || line != want {
			t.Errorf("pasted %q, %v; want %q", line, err, want)
		}
	}
	if _, err := s.pasteLine(t.Context()); !errors.Is(err, io.EOF) {
		t.Errorf("after the last line: %v, want EOF", err)
	}
	if _, err := (streams{}).pasteLine(t.Context()); !errors.Is(err, io.EOF) {
		t.Errorf("no standard input: %v, want EOF", err)
	}
}
