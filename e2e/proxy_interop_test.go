package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// interopServer is a server the interop test puts behind mcpeek proxy: its
// command, how to serve a fresh one over streamable HTTP, the call each
// host makes and the answer a host gives to its form.
type interopServer struct {
	name    string
	command []string
	// http starts a server of its own on streamable HTTP and returns its
	// URL: each side of a comparison gets its own, so that state one
	// call leaves (a note added) cannot tell the sides apart.
	http   func(t *testing.T) string
	tool   string
	args   map[string]any
	answer map[string]any
	// inspectorTool and inspectorArgs are the Inspector CLI's call: it
	// answers no question, so it calls a tool that asks none, or sees
	// what the server does for a host that cannot answer.
	inspectorTool string
	inspectorArgs []string
	// eras are the revisions the go-sdk host asks for ("": its latest).
	eras []string
	// modern: it speaks 2026-07-28, which the TypeScript SDK's v2 host
	// pins; modernHTTP, when not nil, is http for that host: a server of
	// its own that speaks 2026-07-28 on streamable HTTP.
	modern     bool
	modernHTTP func(t *testing.T) string
}

// interopServers are the fixture, server-everything and the mcp-go server,
// each when it is there (under MCPEEK_REQUIRE_BROWSER=1 each must be).
func interopServers(t *testing.T) []interopServer {
	servers := []interopServer{{
		name: "fixture", command: []string{mcpeekBin, "fixture"},
		http: func(t *testing.T) string {
			return fixtureHTTP(t, "legacy")
		},
		tool: "choose_option", answer: map[string]any{"choice": "option-a"},
		inspectorTool: "add_note", inspectorArgs: []string{"text=hi"},
		eras: []string{""}, modern: true,
		modernHTTP: func(t *testing.T) string {
			return fixtureHTTP(t, "modern")
		},
	}}
	if everything := findServerEverything(t); everything != "" {
		servers = append(servers, interopServer{
			name: "server-everything", command: []string{everything},
			http: func(t *testing.T) string { return everythingHTTP(t, everything) },
			tool: "echo", args: map[string]any{"message": "through the proxy"},
			inspectorTool: "echo", inspectorArgs: []string{"message=through the proxy"},
			eras: []string{""},
		})
	}
	if mcpgo := mcpGoServerIfBuilt(t); mcpgo != "" {
		servers = append(servers, interopServer{
			name: "mcp-go", command: []string{mcpgo},
			http: func(t *testing.T) string {
				addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
				return startURLServer(t, exec.Command(mcpgo, "-http", addr), `http://127\.0\.0\.1:\d+/mcp`)
			},
			tool: "register",
			answer: map[string]any{"name": "Ada", "email": "ada@example.com", "age": 36, "height": 1.7,
				"newsletter": true, "plan": "pro"},
			inspectorTool: "register",
			eras:          []string{"2025-11-25", "2026-07-28"},
			modern:        true,
		})
	}
	return servers
}

// mcpGoServerIfBuilt is testdata/mcpgo built, or "" (said in the log)
// when it does not build here and nothing requires it.
func mcpGoServerIfBuilt(t *testing.T) string {
	t.Helper()
	bin, out, err := buildMcpGo()
	if err != nil {
		msg := fmt.Sprintf("mcp-go is left out: testdata/mcpgo does not build here (its module may be out of reach): %v\n%s", err, out)
		if os.Getenv("MCPEEK_REQUIRE_BROWSER") == "1" {
			t.Fatal(msg)
		}
		t.Log(msg)
	}
	return bin
}

// interopHost is a client nobody here wrote, playing the host: it lists
// the tools and calls one against the server the target names, and
// returns the results as it got them.
type interopHost struct {
	name string
	run  func(t *testing.T, s interopServer, target hostTarget) string
	// modernOnly: it speaks 2026-07-28 alone, so it plays the host only
	// for servers that speak it.
	modernOnly bool
}

// hostTarget is the server as a host names it: a command, or a URL.
type hostTarget struct {
	command []string
	url     string
}

func (h hostTarget) String() string {
	if h.url != "" {
		return h.url
	}
	return strings.Join(h.command, " ")
}

// proxyMode is how the proxy stands between the host and the server: the
// host reaches the server through it, and directly over the server's own
// transport, and the results must be the same bytes.
type proxyMode struct {
	name string
	// url: the server is reached at a URL (else as a command).
	url bool
	// through is the target through the proxy, in front of a server of
	// its own.
	through func(t *testing.T, s interopServer) hostTarget
}

var proxyModes = []proxyMode{
	{"stdio", false, func(t *testing.T, s interopServer) hostTarget {
		return hostTarget{command: append([]string{mcpeekBin, "proxy", "--"}, s.command...)}
	}},
	{"listen", true, func(t *testing.T, s interopServer) hostTarget {
		return hostTarget{url: startListeningProxy(t, s.http(t))}
	}},
	// Crossing transports: a stdio host in front of the server's URL,
	// and a host on --listen in front of its command.
	{"stdio-to-url", true, func(t *testing.T, s interopServer) hostTarget {
		return hostTarget{command: []string{mcpeekBin, "proxy", s.http(t)}}
	}},
	{"listen-to-command", false, func(t *testing.T, s interopServer) hostTarget {
		return hostTarget{url: startListeningCommandProxy(t, s.command)}
	}},
}

// startListeningCommandProxy runs mcpeek proxy --listen in front of a
// server command and returns the URL the host reaches it at.
func startListeningCommandProxy(t *testing.T, command []string, extra ...string) string {
	t.Helper()
	args := append(append([]string{"proxy", "--listen", "127.0.0.1:0"}, extra...), "--")
	return startURLServer(t, exec.Command(mcpeekBin, append(args, command...)...), `http://127\.0\.0\.1:\d+/`)
}

// The done-when of mcpeek proxy: the official Inspector CLI, the
// TypeScript SDK's client and a go-sdk client (in each era the server
// speaks) list and call the tools of the fixture, server-everything and
// an mcp-go server through mcpeek proxy — as its stdio server and on
// --listen, in front of the server's command and of its URL — and get
// the bytes a direct connection gets. Nothing is stripped from either
// side: none of these results differs run to run. Each host reaches the
// server directly once over each transport; each way through the proxy
// runs in parallel.
func TestProxyInteropHostsGetWhatADirectConnectionGets(t *testing.T) {
	t.Parallel()
	hosts := interopHosts(t)
	for _, s := range interopServers(t) {
		for _, h := range hosts {
			if h.modernOnly && !s.modern {
				continue
			}
			s := s
			if h.modernOnly && s.modernHTTP != nil {
				s.http = s.modernHTTP
			}
			t.Run(s.name+"/"+h.name, func(t *testing.T) {
				t.Parallel()
				direct := map[bool]string{
					false: h.run(t, s, hostTarget{command: s.command}),
					true:  h.run(t, s, hostTarget{url: s.http(t)}),
				}
				for _, d := range direct {
					if !strings.Contains(d, `"content"`) || !strings.Contains(d, `"tools"`) {
						t.Fatalf("the host listed or called nothing: %s", d)
					}
				}
				for _, m := range proxyModes {
					t.Run(m.name, func(t *testing.T) {
						t.Parallel()
						through := m.through(t, s)
						if got := h.run(t, s, through); got != direct[m.url] {
							t.Fatalf("through the proxy (%s) the host got\n%s\nbut directly\n%s", through, got, direct[m.url])
						}
					})
				}
			})
		}
	}
}

// interopHosts are the go-sdk client and, where Node is, the TypeScript
// SDK's client and the Inspector CLI.
func interopHosts(t *testing.T) []interopHost {
	hosts := []interopHost{{name: "go-sdk", run: goSDKHost}}
	if sdk := nodePiece(t, "TypeScript SDK", func(t *testing.T) string { return tsSDK(t) }); sdk != "" {
		hosts = append(hosts, interopHost{name: "ts-sdk", run: func(t *testing.T, s interopServer, target hostTarget) string {
			return tsSDKHost(t, sdk, s, target)
		}})
	}
	if client := nodePiece(t, "TypeScript SDK's v2 client", func(t *testing.T) string { return tsClient.dir(t) }); client != "" {
		hosts = append(hosts, interopHost{name: "ts-sdk-v2", modernOnly: true, run: func(t *testing.T, s interopServer, target hostTarget) string {
			return tsModernInteropHost(t, client, s, target)
		}})
	}
	if node, launcher := inspectorCLI(t); launcher != "" {
		hosts = append(hosts, interopHost{name: "inspector", run: func(t *testing.T, s interopServer, target hostTarget) string {
			return inspectorHost(t, node, launcher, s, target)
		}})
	}
	return hosts
}

// nodePiece runs find in a subtest, so that its skip leaves the piece out
// rather than the whole test.
func nodePiece(t *testing.T, what string, find func(t *testing.T) string) (found string) {
	t.Helper()
	if !t.Run("find "+what, func(t *testing.T) { found = find(t) }) || found == "" {
		t.Logf("the %s is left out", what)
		return ""
	}
	return found
}

// goSDKHost is a go-sdk client in each of the server's eras; its results
// are the typed results it decoded, encoded again.
func goSDKHost(t *testing.T, s interopServer, target hostTarget) string {
	t.Helper()
	var out []string
	for _, era := range s.eras {
		var transport mcp.Transport = &mcp.StreamableClientTransport{Endpoint: target.url, MaxRetries: 1}
		if target.url == "" {
			transport = &mcp.CommandTransport{Command: exec.Command(target.command[0], target.command[1:]...)}
		}
		out = append(out, goSDKSession(t, s, transport, era))
	}
	return strings.Join(out, "\n")
}

func goSDKSession(t *testing.T, s interopServer, transport mcp.Transport, era string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "go-host", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			// A copy: the SDK fills the schema's defaults into the content, and
			// hosts run in parallel.
			return &mcp.ElicitResult{Action: "accept", Content: maps.Clone(s.answer)}, nil
		},
	})
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: era})
	if err != nil {
		t.Fatalf("%s: connecting (era %q): %v", s.name, era, err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ProtocolVersion; era != "" && got != era {
		t.Fatalf("%s: the host asked for %s and speaks %s", s.name, era, got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("%s: tools/list: %v", s.name, err)
	}
	call, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: s.tool, Arguments: s.args})
	if err != nil || call.IsError {
		t.Fatalf("%s: tools/call %s: %v %+v", s.name, s.tool, err, call)
	}
	out, err := json.Marshal(map[string]any{"era": cs.InitializeResult().ProtocolVersion, "tools": tools, "call": call})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// tsInteropScript is the TypeScript SDK's client playing the host: argv
// is the SDK's folder, the tool, its arguments and the form's answer as
// JSON, then "http URL" or "stdio COMMAND...". It prints the results as
// the SDK handed them over.
const tsInteropScript = `
const [sdk, tool, args, answer, mode, ...rest] = process.argv.slice(2);
const load = (p) => import("file://" + sdk + "/dist/esm/" + p);
const { Client } = await load("client/index.js");
const { StdioClientTransport } = await load("client/stdio.js");
const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
const { ElicitRequestSchema } = await load("types.js");
const client = new Client({ name: "ts-host", version: "1" }, { capabilities: { elicitation: { form: {} } } });
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: JSON.parse(answer) }));
const transport = mode === "http"
  ? new StreamableHTTPClientTransport(new URL(rest[0]))
  : new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "ignore" });
await client.connect(transport);
const tools = await client.listTools();
const call = await client.callTool({ name: tool, arguments: JSON.parse(args) });
process.stdout.write(JSON.stringify({ tools, call }));
await client.close();
`

func tsSDKHost(t *testing.T, sdk string, s interopServer, target hostTarget) string {
	t.Helper()
	args := append([]string{sdk, s.tool, jsonOr(s.args), jsonOr(s.answer)}, target.words("http", "stdio")...)
	run := <-nodeHost{script: tsInteropScript, args: args}.start(t)
	if run.err != nil {
		t.Fatalf("the TypeScript SDK's client: %v\n%s", run.err, run.stderr)
	}
	return run.stdout
}

// tsModernInteropHost is the TypeScript SDK's v2 client, pinned to
// 2026-07-28, answering the server's form as s says.
func tsModernInteropHost(t *testing.T, client string, s interopServer, target hostTarget) string {
	t.Helper()
	words := target.command
	if target.url != "" {
		words = []string{"http", target.url}
	}
	args := append([]string{client, jsonOr(s.answer), "go", s.tool, jsonOr(s.args)}, words...)
	run := <-nodeHost{script: tsModernHostScript, args: args}.start(t)
	if run.err != nil {
		t.Fatalf("the TypeScript SDK's v2 client: %v\n%s", run.err, run.stderr)
	}
	return run.stdout
}

// words are the target as a host script takes it: URL mode and the URL,
// or command mode and the command.
func (h hostTarget) words(urlMode, commandMode string) []string {
	if h.url != "" {
		return []string{urlMode, h.url}
	}
	return append([]string{commandMode}, h.command...)
}

func jsonOr(v map[string]any) string {
	if v == nil {
		return "{}"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// runNode runs a Node.js program and returns its stdout.
func runNode(t *testing.T, node string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", node, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// inspectorHost is the Inspector CLI: one run lists the tools, another
// calls one, each printing the result as it got it.
func inspectorHost(t *testing.T, node, launcher string, s interopServer, target hostTarget) string {
	t.Helper()
	server := target.command
	if target.url != "" {
		server = []string{target.url, "--transport", "http"}
	}
	base := append([]string{launcher, "--cli"}, server...)
	list := runNode(t, node, append(base, "--method", "tools/list")...)
	call := append(base, "--method", "tools/call", "--tool-name", s.inspectorTool)
	for _, a := range s.inspectorArgs {
		call = append(call, "--tool-arg", a)
	}
	return `{"tools":` + list + `,"call":` + runNode(t, node, call...) + "}"
}

// inspectorCLI finds the pinned Inspector where .ci/run installs it
// ($MCPEEK_INSPECTOR: its package folder) and the Node.js to run it with
// (the one installed beside it, else node on PATH); "" when it is not
// there, which under MCPEEK_REQUIRE_BROWSER=1 fails the test.
func inspectorCLI(t *testing.T) (node, launcher string) {
	t.Helper()
	pkg := os.Getenv("MCPEEK_INSPECTOR")
	if pkg == "" {
		pkg = filepath.Join(npmCache(), "node_modules", "@modelcontextprotocol", "inspector")
	}
	missing := func(why string) (string, string) {
		msg := fmt.Sprintf("the Inspector CLI is left out: %s (npm install --prefix %s @modelcontextprotocol/inspector@%s, or set MCPEEK_INSPECTOR to its package folder)",
			why, npmCache(), inspectorVersion)
		if os.Getenv("MCPEEK_REQUIRE_BROWSER") == "1" {
			t.Fatal(msg)
		}
		t.Log(msg)
		return "", ""
	}
	if why := inspectorProblem(pkg); why != "" {
		return missing(why)
	}
	node = filepath.Join(npmCache(), "node_modules", ".bin", "node")
	if _, err := os.Stat(node); err != nil {
		if node, err = exec.LookPath("node"); err != nil {
			return missing("no node on PATH")
		}
	}
	return node, filepath.Join(pkg, "clients", "launcher", "build", "index.js")
}
