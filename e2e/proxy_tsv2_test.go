package e2e

import (
	"io"
	"os/exec"
	"strings"
	"testing"
)

// tsClient is the pinned TypeScript SDK v2 client, the SDK's client of
// the 2026-07-28 revision (multi round-trip requests): $MCPEEK_TS_CLIENT
// names its folder (as CI does), else it is installed with npm into the
// user cache.
var tsClient = nodePackage{"MCPEEK_TS_CLIENT", "@modelcontextprotocol/client", "2.4.0"}

// tsModernHostScript is the TypeScript SDK's v2 client as a host pinned
// to 2026-07-28: argv is the client's folder, the form's answer as JSON
// ("none": the host advertises no elicitation, and an input_required
// result that reaches it fails the call), "wait" to read a line on stdin
// between listing the tools and calling one ("go" not to), the tool, its
// arguments as JSON, then "http URL" or its stdio server's command, whose
// stderr is its own and which gets its environment whole.
const tsModernHostScript = `
const [pkg, answer, gate, tool, args, ...server] = process.argv.slice(2);
const { Client, StreamableHTTPClientTransport } = await import("file://" + pkg + "/dist/index.mjs");
const { StdioClientTransport } = await import("file://" + pkg + "/dist/stdio.mjs");
const elicits = answer !== "none";
const client = new Client({ name: "ts-v2-host", version: "1" }, {
  capabilities: elicits ? { elicitation: { form: {} } } : {},
  versionNegotiation: { mode: { pin: "2026-07-28" } },
  inputRequired: { autoFulfill: elicits },
});
if (elicits) client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: JSON.parse(answer) }));
await client.connect(server[0] === "http"
  ? new StreamableHTTPClientTransport(new URL(server[1]))
  : new StdioClientTransport({ command: server[0], args: server.slice(1), env: process.env, stderr: "inherit" }));
const era = client.getNegotiatedProtocolVersion();
if (era !== "2026-07-28") throw new Error("the host speaks " + era + ", not 2026-07-28");
const tools = await client.listTools();
if (gate === "wait") {
  await new Promise((resolve) => process.stdin.once("data", resolve));
  process.stdin.destroy();
}
const call = await client.callTool({ name: tool, arguments: JSON.parse(args) });
process.stdout.write(JSON.stringify({ tools, call }));
await client.close();
`

// tsModernHost is that host: answer is its form's answer ("none": no
// elicitation), stdin what it waits on before its call (nil: it does not
// wait), env its environment (nil: the test's own).
func tsModernHost(t *testing.T, answer string, stdin io.Reader, env []string, tool, args string, words ...string) <-chan hostRun {
	t.Helper()
	gate := "go"
	if stdin != nil {
		gate = "wait"
	}
	return nodeHost{script: tsModernHostScript, args: append([]string{tsClient.dir(t), answer, gate, tool, args}, words...), env: env, stdin: stdin}.start(t)
}

// registered says whether the host got mcp-go's register call completed
// with the answers file's profile.
func registered(out string) bool {
	return strings.Contains(out, `"requestState":"step=profile"`) && strings.Contains(out, "Ada Lovelace") &&
		!strings.Contains(out, `"isError":true`)
}

// --answer for the TypeScript SDK's v2 client in 2026-07-28, advertising
// no elicitation: directly, mcp-go's register reaches it as an
// input_required result it cannot fulfil; through mcpeek proxy --answer
// the proxy answers the round from an answers file (over stdio and on
// --listen) and retries, and the host gets the completed call, never an
// input_required result.
func TestProxyAnswersForTheTSV2Client(t *testing.T) {
	t.Parallel()
	mcpgo := mcpGoServer(t)
	tsClient.dir(t)
	answers := "testdata/interop/mcpgo-answers.json"
	t.Run("directly", func(t *testing.T) {
		t.Parallel()
		run := <-tsModernHost(t, "none", nil, nil, "register", "{}", mcpgo)
		if run.err == nil || !strings.Contains(run.stderr, "input_required") {
			t.Fatalf("a host without elicitation completed mcp-go's register directly: %s (%v)\n%s", run.stdout, run.err, run.stderr)
		}
	})
	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		run := <-tsModernHost(t, "none", nil, nil, "register", "{}", mcpeekBin, "proxy", "--answer", "--answers", answers, "--", mcpgo)
		if run.err != nil || !registered(run.stdout) {
			t.Fatalf("the host got %s (%v)\nstderr: %s", run.stdout, run.err, run.stderr)
		}
		if !strings.Contains(run.stderr, `answered input request "profile"`) {
			t.Errorf("the proxy did not say it answered:\n%s", run.stderr)
		}
	})
	t.Run("listen", func(t *testing.T) {
		t.Parallel()
		proxy := startListeningCommandProxy(t, []string{mcpgo}, "--answer", "--answers", answers)
		run := <-tsModernHost(t, "none", nil, nil, "register", "{}", "http", proxy)
		if run.err != nil || !registered(run.stdout) {
			t.Fatalf("the host got %s (%v)\nstderr: %s", run.stdout, run.err, run.stderr)
		}
	})
}

// The TypeScript SDK's v2 client in 2026-07-28, advertising no
// elicitation, calls mcp-go's register through mcpeek proxy --answer on
// --listen (over stdio the client first probes a proxy of its own, which
// a watcher could attach to instead): the round's question opens the
// form of the mcpeek watch attached, on a terminal, and the host gets the
// call completed with what was typed there.
func TestProxyAnswersForTheTSV2ClientInTheWatchersForm(t *testing.T) {
	t.Parallel()
	mcpgo := mcpGoServer(t)
	env, runtime := watchEnv(t)
	cmd := exec.Command(mcpeekBin, "proxy", "--listen", "127.0.0.1:0", "--answer", "--name", "mcpgo-v2", "--", mcpgo)
	cmd.Env = env
	proxy := startURLServer(t, cmd, `http://127\.0\.0\.1:\d+/`)
	gate, letGo := io.Pipe()
	defer letGo.Close()
	done := tsModernHost(t, "none", gate, nil, "register", "{}", "http", proxy)
	w := startTerminalInspectorWith(t, t.TempDir(), []string{runtime}, "watch", "mcpgo-v2")
	// Attached once the watcher's Log shows the proxy's traffic so far:
	// then the host calls.
	w.expect("watching", "mcpgo-v2").keys("5").expect("tools/list")
	if _, err := letGo.Write([]byte("call\n")); err != nil {
		t.Fatal(err)
	}
	letGo.Close() // the host's stdin ends: it ends when its call does
	// The form ignores keys for a moment after it appears: the first
	// field's (the age's) digit is typed until it shows (a slow frame can
	// let a second in, an age all the same); then the rest is typed, field
	// by field.
	w.expect("is asking for input", "Register with mcp-go", "┃ Age").keyUntil("3", "> 3")
	// huh moves the focus a moment after enter: each move is seen before
	// the next keys.
	w.keys("enter").expect("┃ E-mail").keys("grace@example.org").expect("grace@example.org")
	w.keys("enter").expect("┃ Height").keys("enter").expect("┃ Name").keys("Grace Hopper").expect("Grace Hopper")
	w.keys("enter").expect("┃ Newsletter").keys("enter").expect("┃ Plan")
	w.keys("right").expect("● free").keys("right").expect("● pro").keys("ctrl+s")
	run := <-done
	want := []string{`"email":"grace@example.org"`, `"name":"Grace Hopper"`, `"plan":"pro"`, `"requestState":"step=profile"`}
	if run.err != nil || !containsAll(run.stdout, want...) {
		t.Fatalf("the host got %s (%v)\nstderr: %s", run.stdout, run.err, run.stderr)
	}
}

// containsAll says whether s holds every one of the texts.
func containsAll(s string, texts ...string) bool {
	for _, text := range texts {
		if !strings.Contains(s, text) {
			return false
		}
	}
	return true
}

// The TypeScript SDK's v2 client in 2026-07-28, advertising no
// elicitation, calls the fixture's tool whose question names an app,
// through mcpeek proxy --answer --app-host: the proxy renders the round's
// question in the fixture's app in Chromium, and the host gets the call
// completed with what was chosen in the app.
func TestProxyAnswersForTheTSV2ClientInTheServersApp(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	o := newOpener(t)
	done := tsModernHost(t, "none", nil, nil, "choose_option", "{}",
		mcpeekBin, "proxy", "--answer", "--app-host", "--open-with", o.flag(), "--app-init-timeout", "10s", "--", mcpeekBin, "fixture")
	run := chooseInApp(t, browser, o, done)
	if !strings.Contains(run.stderr, `answered input request "choice"`) || !strings.Contains(run.stderr, "itself (by the server's app (--app-host)): accept") {
		t.Errorf("the proxy did not say the app answered the round:\n%s", run.stderr)
	}
}
