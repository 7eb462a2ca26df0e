package e2e

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tsBareHostScript is the TypeScript SDK's client as a host that
// advertises no elicitation (as many real hosts do): argv is the SDK's
// folder, the tool, its arguments as JSON, then its stdio server's
// command ("http URL" for a URL). The server's stderr, the proxy's words
// among it, is its own.
const tsBareHostScript = `
const [sdk, tool, args, ...server] = process.argv.slice(2);
const load = (p) => import("file://" + sdk + "/dist/esm/" + p);
const { Client } = await load("client/index.js");
const { StdioClientTransport } = await load("client/stdio.js");
const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
const client = new Client({ name: "ts-host-without-elicitation", version: "1" }, { capabilities: {} });
await client.connect(server[0] === "http"
  ? new StreamableHTTPClientTransport(new URL(server[1]))
  : new StdioClientTransport({ command: server[0], args: server.slice(1), stderr: "inherit" }));
const call = await client.callTool({ name: tool, arguments: JSON.parse(args) });
process.stdout.write(JSON.stringify(call));
await client.close();
`

// tsBareHost runs that host against the server words name, and returns
// what it printed and what went to its stderr.
func tsBareHost(t *testing.T, tool, args string, words ...string) (stdout, stderr string) {
	t.Helper()
	run := <-startTSBareHost(t, tool, args, words...)
	if run.err != nil {
		t.Fatalf("the TypeScript host: %v\n%s", run.err, run.stderr)
	}
	return run.stdout, run.stderr
}

// hostRun is how a host's run ended: what it printed, what went to its
// stderr, and its error.
type hostRun struct {
	stdout, stderr string
	err            error
}

// startTSBareHost starts tsBareHost's run, which the test meanwhile
// plays a part in (a browser's); its end comes on the channel.
func startTSBareHost(t *testing.T, tool, args string, words ...string) <-chan hostRun {
	t.Helper()
	return nodeHost{script: tsBareHostScript, args: append([]string{tsSDK(t), tool, args}, words...)}.start(t)
}

// nodeHost is a host in Node.js: its script, the script's arguments, its
// environment (nil: the test's own) and what it reads on stdin (nil:
// nothing).
type nodeHost struct {
	script string
	args   []string
	env    []string
	stdin  io.Reader
}

// start runs the host; its end comes on the channel.
func (h nodeHost) start(t *testing.T) <-chan hostRun {
	t.Helper()
	file := filepath.Join(t.TempDir(), "host.mjs")
	if err := os.WriteFile(file, []byte(h.script), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan hostRun, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "node", append([]string{file}, h.args...)...)
		cmd.Env, cmd.Stdin = h.env, h.stdin
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		out, err := cmd.Output()
		done <- hostRun{stdout: string(out), stderr: errOut.String(), err: err}
	}()
	return done
}

// modernHostLines are a 2026-07-28 host's discovery and one call of
// tool, advertising no elicitation.
func modernHostLines(tool string) []string {
	meta := `"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw-host","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	return []string{
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + meta + `,"name":"` + tool + `","arguments":{}}}`,
	}
}

// recordingPasses turns the recording into a suite against server and
// has mcpeek test run it: it passes.
func recordingPasses(t *testing.T, rec string, server ...string) {
	t.Helper()
	suite := filepath.Join(t.TempDir(), "host.mcpeek.yaml")
	if r := mcpeek(t, append([]string{"record", rec, "--to-suite", suite, "--"}, server...)...); r.code != exitOK {
		t.Fatalf("record --to-suite: exit %d: %s", r.code, r.stderr)
	}
	if r := mcpeek(t, "test", suite); r.code != exitOK {
		text, _ := os.ReadFile(suite)
		t.Fatalf("mcpeek test: exit %d:\n%s\n%s\n%s", r.code, r.stdout, r.stderr, text)
	}
}

// --answer: a host that advertises no elicitation gets completed calls
// of tools that ask, in both eras, the proxy answering from an answers
// file; the host never sees a question, and a recording of the session
// becomes a suite mcpeek test passes.
func TestProxyAnswersForAHostWithoutElicitation(t *testing.T) {
	t.Parallel()
	answering := func(rec, answers string) []string {
		return []string{mcpeekBin, "proxy", "--answer", "--answers", answers, "--record", rec, "--"}
	}
	t.Run("server-everything/legacy", func(t *testing.T) {
		t.Parallel()
		everything := needServer(t, "MCPEEK_SERVER_EVERYTHING", "mcp-server-everything")
		rec := filepath.Join(t.TempDir(), "host.jsonl")
		out, errOut := tsBareHost(t, "trigger-elicitation-request", "{}", append(answering(rec, "testdata/interop/everything-answers.json"), everything)...)
		if !strings.Contains(out, "Ada Lovelace") || strings.Contains(out, `"isError":true`) {
			t.Fatalf("the host got %s\nstderr: %s", out, errOut)
		}
		if !strings.Contains(errOut, "answered the server's elicitation/create") {
			t.Errorf("the proxy did not say it answered:\n%s", errOut)
		}
		recordingPasses(t, rec, everything)
	})
	t.Run("fixture/legacy", func(t *testing.T) {
		t.Parallel()
		rec := filepath.Join(t.TempDir(), "host.jsonl")
		out, errOut := tsBareHost(t, "multi_round", "{}", append(answering(rec, "testdata/answers/multi-round.json"), mcpeekBin, "fixture")...)
		if !strings.Contains(out, "name: Grace, confirm: true") {
			t.Fatalf("the host got %s\nstderr: %s", out, errOut)
		}
		recordingPasses(t, rec, mcpeekBin, "fixture")
	})
	t.Run("mcp-go/legacy", func(t *testing.T) {
		t.Parallel()
		mcpgo := mcpGoServer(t)
		rec := filepath.Join(t.TempDir(), "host.jsonl")
		out, errOut := tsBareHost(t, "register", "{}", append(answering(rec, "testdata/interop/mcpgo-answers.json"), mcpgo)...)
		if !strings.Contains(out, "Ada Lovelace") || strings.Contains(out, `"isError":true`) {
			t.Fatalf("the host got %s\nstderr: %s", out, errOut)
		}
		recordingPasses(t, rec, mcpgo)
	})
	modern := []struct{ name, tool, answers, want string }{
		{"fixture", "multi_round", "testdata/answers/multi-round.json", "name: Grace, confirm: true, rounds: 2"},
		{"mcp-go", "register", "testdata/interop/mcpgo-answers.json", "Ada Lovelace"},
	}
	for _, c := range modern {
		t.Run(c.name+"/modern", func(t *testing.T) {
			t.Parallel()
			server := []string{mcpeekBin, "fixture"}
			if c.name == "mcp-go" {
				server = []string{mcpGoServer(t)}
			}
			rec := filepath.Join(t.TempDir(), "host.jsonl")
			out, code := rawHost(t, modernHostLines(c.tool), append(answering(rec, c.answers), server...)...)
			if code != 0 {
				t.Fatalf("the proxy: exit %d\n%s", code, out)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			last := lines[len(lines)-1]
			if len(lines) != 2 || !strings.HasPrefix(last, `{"jsonrpc":"2.0","id":2,"result":`) || !strings.Contains(last, c.want) ||
				strings.Contains(out, "input_required") || strings.Contains(out, "mcpeek-proxy-") {
				t.Fatalf("the host got\n%s", out)
			}
			recordingPasses(t, rec, server...)
		})
	}
}

// --answer over --listen: a legacy question taken out of the server's
// stream and answered by a POST of the proxy's, and 2026-07-28 rounds
// posted by the proxy; the host that advertises elicitation is not asked
// with --answer=always.
func TestProxyAnswersOverListen(t *testing.T) {
	t.Parallel()
	t.Run("server-everything/legacy", func(t *testing.T) {
		t.Parallel()
		everything := needServer(t, "MCPEEK_SERVER_EVERYTHING", "mcp-server-everything")
		rec := filepath.Join(t.TempDir(), "host.jsonl")
		proxy := startListeningProxy(t, everythingHTTP(t, everything), "--answer", "--answers", "testdata/interop/everything-answers.json", "--record", rec)
		out, errOut := tsBareHost(t, "trigger-elicitation-request", "{}", "http", proxy)
		if !strings.Contains(out, "Ada Lovelace") || strings.Contains(out, `"isError":true`) {
			t.Fatalf("the host got %s\nstderr: %s", out, errOut)
		}
		recorded(t, rec, "Ada Lovelace", proxy)
		recordingPasses(t, rec, everything)
	})
	for _, era := range []string{"legacy", "modern"} {
		t.Run("fixture/"+era, func(t *testing.T) {
			t.Parallel()
			url := fixtureHTTP(t, era)
			rec := filepath.Join(t.TempDir(), "host.jsonl")
			proxy := startListeningProxy(t, url, "--answer=always", "--answers", "testdata/answers/multi-round.json", "--record", rec)
			// The host would decline: the answer it gets is the proxy's.
			r := mcpeek(t, "call", "multi_round", "--protocol", era, "--on-elicit", "decline", proxy)
			if r.code != exitOK || !strings.Contains(r.stdout, "name: Grace, confirm: true") {
				t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
			}
			recorded(t, rec, "name: Grace, confirm: true", proxy)
			recordingPasses(t, rec, mcpeekBin, "fixture")
		})
	}
}

// --answer and --answers name what they answer with: without --answer
// the others are a mistake, and a bad answers file is refused at once.
func TestProxyAnswerFlags(t *testing.T) {
	t.Parallel()
	if r := mcpeek(t, "proxy", "--answers", "testdata/answers/choose-option-a.json", "--", mcpeekBin, "fixture"); r.code != exitUsage || !strings.Contains(r.stderr, "give --answer too") {
		t.Errorf("--answers without --answer: exit %d: %s", r.code, r.stderr)
	}
	if r := mcpeek(t, "proxy", "--answer=sometimes", "--", mcpeekBin, "fixture"); r.code != exitUsage || !strings.Contains(r.stderr, "--answer=always") {
		t.Errorf("--answer=sometimes: exit %d: %s", r.code, r.stderr)
	}
	if r := mcpeek(t, "proxy", "--answer", "--answers", "testdata/answers/null.json", "--", mcpeekBin, "fixture"); r.code != exitUsage || !strings.Contains(r.stderr, "answers file") {
		t.Errorf("a bad answers file: exit %d: %s", r.code, r.stderr)
	}
}
