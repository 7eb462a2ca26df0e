package session

import (
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/mcpconfig"
)

// TestPickInput: a pick takes an option's number or the option itself,
// and a line is read up to its end, without the carriage return.
func TestPickInput(t *testing.T) {
	in := mcpconfig.Input{ID: "region", Options: []string{"eu", "us"}}
	for answer, want := range map[string]string{"2": "us", "eu": "eu"} {
		if got, err := pick(in, answer); err != nil || got != want {
			t.Errorf("pick %q = %q, %v; want %q", answer, got, err, want)
		}
	}
	if _, err := pick(in, "mars"); err == nil {
		t.Error("an answer that is no option was taken")
	}
	if line, err := readLine(strings.NewReader("typed\r\nrest")); err != nil || line != "typed" {
		t.Errorf("readLine = %q, %v", line, err)
	}
}
