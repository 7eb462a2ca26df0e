package cli

import (
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// TestCompleteValueOrServer: complete's VALUE is --value, or a word that
// -- or nothing but flags follows; a word that could be the VALUE or the
// server's command is refused with both ways to say it, never answered
// from another server (the embedded fixture) than the one meant.
func TestCompleteValueOrServer(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		wantValue   string
		wantCommand []string // nil: the embedded fixture
		wantErr     string
	}{
		{args: []string{"prompt", "greet", "language", "F"}, wantValue: "F"},
		{args: []string{"prompt", "greet", "language", "F", "--protocol", "legacy"}, wantValue: "F"},
		{args: []string{"prompt", "greet", "language", "F", "--", "./server"}, wantValue: "F", wantCommand: []string{"./server"}},
		{args: []string{"prompt", "greet", "language", "F", "--protocol", "legacy", "--", "node", "x.mjs"}, wantValue: "F", wantCommand: []string{"node", "x.mjs"}},
		{args: []string{"prompt", "greet", "language", "--", "node", "x.mjs"}, wantCommand: []string{"node", "x.mjs"}},
		{args: []string{"prompt", "greet", "language", "--value", "F", "node", "x.mjs"}, wantValue: "F", wantCommand: []string{"node", "x.mjs"}},
		{args: []string{"resource", "file:///{path}", "path", "--value", "./src/", "./server"}, wantValue: "./src/", wantCommand: []string{"./server"}},
		{args: []string{"prompt", "greet", "language"}},
		// The words that were read as VALUE, the server left out.
		{args: []string{"resource", "fixture://greeting/{language}", "language", "./server"}, wantErr: `is "./server" the VALUE to complete or the server's command? Give the value with --value VALUE, or put -- before the server`},
		{args: []string{"prompt", "greet", "language", "node", "x.mjs"}, wantErr: `is "node" the VALUE`},
		{args: []string{"prompt", "greet", "language", "F", "./server"}, wantErr: `is "F" the VALUE`},
		{args: []string{"prompt", "greet", "language", "@notes"}, wantErr: `is "@notes" the VALUE`},
		{args: []string{"prompt", "greet", "language", "F", "--value", "G"}, wantErr: `"F" and --value both give the VALUE`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			c := find("complete")
			fs := c.flagSet(new(strings.Builder))
			o := c.options(fs).(*completeOptions)
			err := o.parse(fs, tc.args)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("parse: %v; want an error with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.argument.Value != tc.wantValue {
				t.Errorf("value %q, want %q", o.argument.Value, tc.wantValue)
			}
			target := o.conn.Target
			switch {
			case tc.wantCommand == nil && target.Kind != mcpclient.TargetEmbedded:
				t.Errorf("target %v, want the embedded fixture", target)
			case tc.wantCommand != nil && (target.Kind != mcpclient.TargetStdio || strings.Join(target.Command, " ") != strings.Join(tc.wantCommand, " ")):
				t.Errorf("target %q, want the command %q", target.Command, tc.wantCommand)
			}
		})
	}
}

// TestCompleteNeverAnswersFromAnotherServer: the words the server was
// meant to be are no longer the VALUE of a completion the fixture answers
// (exit 0, no values); the run stops before connecting and says how.
func TestCompleteNeverAnswersFromAnotherServer(t *testing.T) {
	code, stdout, stderr := run("complete", "resource", "fixture://greeting/{language}", "language", "./server")
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "--value") || !strings.Contains(stderr, "put -- before the server") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
