package mcpclient

import "testing"

// TestTargetStringQuotesTheCommand: a command is shown as a POSIX shell
// would take it back, its words quoted where a shell would split or
// expand them.
func TestTargetStringQuotesTheCommand(t *testing.T) {
	for _, tc := range []struct {
		command []string
		want    string
	}{
		{[]string{"npx", "-y", "@modelcontextprotocol/server-memory"}, "npx -y @modelcontextprotocol/server-memory"},
		{[]string{"node", "my server.mjs", "--name=it's", ""}, `node 'my server.mjs' '--name=it'"'"'s' ''`},
		{[]string{"sh", "-c", "echo $HOME; rm *"}, `sh -c 'echo $HOME; rm *'`},
	} {
		if got := (Target{Kind: TargetStdio, Command: tc.command}).String(); got != tc.want {
			t.Errorf("String() = %s, want %s", got, tc.want)
		}
	}
}
