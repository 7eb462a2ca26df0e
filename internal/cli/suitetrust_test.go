package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// runTest runs `mcpeek test ARGS` in dir without a terminal, with ask
// (nil: none) asking about a project's suite; it returns the exit code,
// stdout, stderr and how many times the person was asked.
func runTest(t *testing.T, dir string, ask session.SuiteApprover, args ...string) (code int, stdout, stderr string, asked int) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	s := streams{out: &out, errOut: &errb}
	fs := find("test").flagSet(&out)
	opts := find("test").options(fs)
	err := opts.parse(fs, args)
	if err == nil {
		if ask != nil {
			opts.(*testOptions).askSuite = func(ctx context.Context, ps session.ProjectSuite) (bool, error) {
				asked++
				return ask(ctx, ps)
			}
		}
		err = opts.run(context.Background(), s)
	}
	code = report(context.Background(), err, &errb)
	return code, out.String(), errb.String(), asked
}

// tokenSuite is a suite whose server is url with the person's
// GITHUB_TOKEN in its query.
func tokenSuite(url string) string {
	return fmt.Sprintf(`version: 1
server: "%s/mcp?t={{env.GITHUB_TOKEN}}"
protocol: 2025-11-25
tests:
  - name: lists tools
    steps:
      - list: tools
`, url)
}

// TestDiscoveredSuiteNeedsApproval: in a clone whose mcpeek/ folder holds
// a suite reaching a URL with {{env.GITHUB_TOKEN}} in it, `mcpeek test`
// without a terminal refuses it (exit 2), naming --trust-project and
// MCPEEK_TRUST_PROJECT, and the server sees no request, so the token is
// never sent. Approved on a terminal, it runs and is not asked about
// again until it changes; --trust-project runs it in CI; a suite the
// person names on the command line is theirs by naming it.
func TestDiscoveredSuiteNeedsApproval(t *testing.T) {
	_, project := home(t)
	t.Setenv("GITHUB_TOKEN", "ghp-secret-123")
	t.Setenv(session.TrustProjectEnv, "")
	t.Setenv("GITHUB_ACTIONS", "")
	server := newRecorder(t)
	file := filepath.Join(project, "mcpeek", "t.mcpeek.yaml")
	writeFile(t, file, tokenSuite(server.URL))

	refusedUnasked(t, project, server)

	if code, _, stderr, asked := runTest(t, project, func(context.Context, session.ProjectSuite) (bool, error) { return false, nil }); code != exitUsage || asked != 1 || len(server.requests()) != 0 {
		t.Errorf("declined: exit %d, asked %d, stderr %q, requests %q", code, asked, stderr, server.requests())
	}
	var shown session.ProjectSuite
	approve := func(_ context.Context, ps session.ProjectSuite) (bool, error) { shown = ps; return true, nil }
	if code, stdout, stderr, asked := runTest(t, project, approve); code != exitOK || asked != 1 {
		t.Fatalf("approved: exit %d, asked %d, stdout %q, stderr %q", code, asked, stdout, stderr)
	}
	if shown.File != filepath.Join("mcpeek", "t.mcpeek.yaml") || strings.Join(shown.Reads, ",") != "GITHUB_TOKEN" {
		t.Errorf("asked about %+v", shown)
	}
	if reqs := server.requests(); len(reqs) == 0 || !strings.Contains(reqs[0], "t=ghp-secret-123") {
		t.Errorf("approved, the suite did not reach its server: %q", reqs)
	}
	if code, _, stderr, asked := runTest(t, project, approve); code != exitOK || asked != 0 {
		t.Errorf("approved before: exit %d, asked %d, stderr %q", code, asked, stderr)
	}
	writeFile(t, file, strings.Replace(tokenSuite(server.URL), "t={{env.GITHUB_TOKEN}}", "t={{env.GITHUB_TOKEN}}&u={{env.HOME}}", 1))
	if code, _, stderr, asked := runTest(t, project, approve); code != exitOK || asked != 1 || strings.Join(shown.Reads, ",") != "GITHUB_TOKEN,HOME" {
		t.Errorf("changed since approved: exit %d, asked %d (%v), stderr %q", code, asked, shown.Reads, stderr)
	}

	writeFile(t, file, tokenSuite(server.URL)+"# changed again\n")
	for _, args := range [][]string{{"--trust-project"}, {filepath.Join("mcpeek", "t.mcpeek.yaml")}} {
		if code, _, stderr, asked := runTest(t, project, approve, args...); code != exitOK || asked != 0 {
			t.Errorf("%v: exit %d, asked %d, stderr %q", args, code, asked, stderr)
		}
	}
	t.Setenv(session.TrustProjectEnv, "1")
	if code, _, stderr, asked := runTest(t, project, approve); code != exitOK || asked != 0 {
		t.Errorf("%s=1: exit %d, asked %d, stderr %q", session.TrustProjectEnv, code, asked, stderr)
	}
}

// refusedUnasked checks that, without a terminal, the unapproved suite in
// project is refused with exit 2, naming how to approve it and the
// variable it reads but not its value, and that its server saw nothing.
func refusedUnasked(t *testing.T, project string, server *recorder) {
	t.Helper()
	code, _, stderr, _ := runTest(t, project, nil)
	if code != exitUsage || !strings.Contains(stderr, "--trust-project") || !strings.Contains(stderr, session.TrustProjectEnv+"=1") ||
		!strings.Contains(stderr, "GITHUB_TOKEN") {
		t.Errorf("unapproved without a terminal: exit %d, stderr %q", code, stderr)
	}
	if strings.Contains(stderr, "ghp-secret-123") {
		t.Errorf("the refusal shows the token: %q", stderr)
	}
	if reqs := server.requests(); len(reqs) != 0 {
		t.Fatalf("the server was reached unapproved: %q", reqs)
	}
}

// quotingServer serves, over streamable HTTP, a server whose tools quote
// the URL it was reached at: whoami in its result, fail in a tool error.
func quotingServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		reached := r.URL.String()
		s := mcp.NewServer(&mcp.Implementation{Name: "quoting", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "whoami", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "you reached " + reached}}}, nil
		})
		s.AddTool(&mcp.Tool{Name: "fail", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no access for " + reached}}}, nil
		})
		return s
	}, &mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestURLCredentialsAreSecrets: a server that quotes the URL it was
// reached at, access_token and all, in a result and in an error, shows
// the token nowhere: not in call's output, nor in mcpeek test's output,
// its ::error lines, JUnit, JSON report or step summary, where the suite
// reads the token from the environment ({{env.X}}).
func TestURLCredentialsAreSecrets(t *testing.T) {
	const token = "sk-live-url-token-0123"
	url := quotingServer(t) + "/mcp?access_token=" + token
	for _, tool := range []string{"whoami", "fail"} {
		_, stdout, stderr := run("call", tool, "--protocol", "legacy", url)
		if !strings.Contains(stdout+stderr, "you reached") && !strings.Contains(stdout+stderr, "no access for") || strings.Contains(stdout+stderr, token) {
			t.Errorf("call %s: stdout %q, stderr %q", tool, stdout, stderr)
		}
	}

	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	t.Setenv("QUOTING_TOKEN", token)
	path := writeSuite(t, fmt.Sprintf(`version: 1
server: "%s/mcp?access_token={{env.QUOTING_TOKEN}}"
protocol: 2025-11-25
tests:
  - name: whoami
    steps:
      - call: whoami
        expect: {text: "someone else"}
  - name: fail
    steps:
      - call: fail
        expect: {text: "someone else"}
`, strings.TrimSuffix(url, "/mcp?access_token="+token)))
	junitPath, jsonPath := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "report.json")
	code, stdout, stderr := run("test", path, "--junit", junitPath, "--json", jsonPath)
	if code != exitToolError || !strings.Contains(stdout, "::error") || !strings.Contains(stdout, "you reached") {
		t.Fatalf("exit %d: stdout %q, stderr %q", code, stdout, stderr)
	}
	if strings.Contains(stdout+stderr, token) {
		t.Errorf("mcpeek test prints the URL's token: stdout %q, stderr %q", stdout, stderr)
	}
	for _, f := range []string{junitPath, jsonPath, summary} {
		data, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(data), "[redacted]") || strings.Contains(string(data), token) {
			t.Errorf("%s: %v\n%s", filepath.Base(f), err, data)
		}
	}
}
