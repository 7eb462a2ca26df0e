package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// failingCommand is a stdio server that says why it will not start, on
// stderr, and exits.
var failingCommand = []string{"sh", "-c", `echo "starting up" >&2; echo "boom: missing API_KEY" >&2; exit 1`}

// stdioConnect connects to a command, its stderr in wire, as the command
// line does.
func stdioConnect(command []string, wire *mcpclient.WireLog) func(context.Context, mcpclient.NativeAsker) (*mcpclient.Conn, error) {
	return func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
		return mcpclient.Connect(ctx, mcpclient.Config{
			Target: mcpclient.Target{Kind: mcpclient.TargetStdio, Command: command},
			Asker:  asker, Wire: wire,
		})
	}
}

// A server that prints a reason to stderr and exits: the first screen
// says why in the header, and the Tools pane shows the whole error, the
// server's stderr and the command; so does the Info tab.
func TestServerThatDiesAtStartSaysWhy(t *testing.T) {
	t.Parallel()
	wire := mcpclient.NewWireLog(0, nil)
	target := mcpclient.Target{Kind: mcpclient.TargetStdio, Command: failingCommand}.String()
	in := open(t, Options{Connect: stdioConnect(failingCommand, wire), Wire: wire, Target: target}, 80, 24)
	in.expect("r retries")
	first := in.tm.View() // drawn by the program: the model is its goroutine's while it runs
	lines := strings.Split(first, "\n")
	if !strings.Contains(lines[0], "could not connect: boom: missing API_KEY · r reconnects") {
		t.Errorf("the header does not say why in one line:\n%s", lines[0])
	}
	wantOnScreen(t, first, "starting up", "command", "exit 1", "r retries")
	if pane := paneText(first); !strings.Contains(pane, "(server stderr: boom: missing API_KEY)") {
		t.Errorf("the pane lacks the server's stderr in the error:\n%s", pane)
	}
	in.keys("6")
	wantOnScreen(t, in.screen(), "could not connect", "the server's last stderr lines", "starting up", "boom: missing API_KEY", "r retries")
}

// Without the inspector's wire log, the header still gives the reason
// the error carries.
func TestFailureReasonWithoutTheWireLog(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: stdioConnect(failingCommand, nil), Target: "the command"}, 80, 24)
	in.expect("r retries")
	if head := strings.Split(in.screen(), "\n")[0]; !strings.Contains(head, "could not connect: boom: missing API_KEY") {
		t.Errorf("header:\n%s", head)
	}
}

// A server that goes away after connecting: the header says so, and the
// Tools pane explains it over the tool's description.
func TestServerGoingAwayExplainsItself(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(mortalServer, "legacy")}, 80, 24).expect("exit")
	in.keys("enter").expect("r retries")
	view := in.screen()
	if head := strings.Split(view, "\n")[0]; !strings.HasPrefix(head, "disconnected: ") {
		t.Errorf("header:\n%s", head)
	}
	wantOnScreen(t, view, "│ server ", "│ embedded fixture", "r retries")
}

// paneText is the text of the pane beside the list, its wrapped lines
// joined: where the error wraps depends on its wording.
func paneText(view string) string {
	var parts []string
	for _, line := range strings.Split(view, "\n") {
		if _, right, ok := strings.Cut(line, "│"); ok {
			parts = append(parts, right)
		}
	}
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}
