package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startURLServer starts cmd, waits for the stderr line ready matches and
// returns what it matched; the process is stopped when the test ends.
func startURLServer(t *testing.T, cmd *exec.Cmd, ready string) string {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := sync.OnceValue(cmd.Wait)
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = ended() })
	re := regexp.MustCompile(ready)
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if m := re.FindString(lines.Text()); m != "" {
			go func() { _, _ = io.Copy(io.Discard, stderr) }()
			listening.Store(m, func() error { _ = cmd.Process.Signal(syscall.SIGTERM); return ended() })
			t.Cleanup(func() { listening.Delete(m) })
			return m
		}
	}
	t.Fatalf("%s never said it was ready", cmd.Path)
	return ""
}

// listening ends the process behind a URL startURLServer returned, or
// startListeningProxy: it is sent SIGTERM (as a service manager would end
// it), and the function returns once it has exited.
var listening sync.Map // URL → func() error

// endListening ends the process listening at url and waits for it.
func endListening(t *testing.T, url string) {
	t.Helper()
	end, ok := listening.Load(url)
	if !ok {
		t.Fatalf("no process of this test listens at %s", url)
	}
	if err := end.(func() error)(); err != nil {
		t.Fatalf("the process at %s, ended: %v", url, err)
	}
}

// fixtureHTTP starts mcpeek fixture on streamable HTTP for era ("legacy"
// or "modern": go-sdk serves 2026-07-28 over HTTP without sessions only,
// so --stateless) and returns its URL.
func fixtureHTTP(t *testing.T, era string) string {
	t.Helper()
	args := []string{"fixture", "--http", "127.0.0.1:0"}
	if era == "modern" {
		args = append(args, "--stateless")
	}
	return startURLServer(t, exec.Command(mcpeekBin, args...), `http://127\.0\.0\.1:\d+/`)
}

// everythingHTTP starts server-everything (bin) on streamable HTTP and
// returns its URL.
func everythingHTTP(t *testing.T, bin string) string {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(bin, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	startURLServer(t, cmd, `listening on port \d+`)
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}

// startListeningProxy runs mcpeek proxy --listen in front of url and
// returns the URL the host reaches it at.
func startListeningProxy(t *testing.T, url string, extra ...string) string {
	t.Helper()
	base := startListeningCommandProxy(t, []string{url}, extra...)
	// The host asks the proxy at the server's own path.
	at := strings.TrimSuffix(base, "/") + pathOf(url)
	end, _ := listening.Load(base)
	listening.Store(at, end)
	t.Cleanup(func() { listening.Delete(at) })
	return at
}

func pathOf(url string) string {
	rest := url[strings.Index(url, "//")+2:]
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return rest[i:]
	}
	return "/"
}

func stdioTransport(words ...string) mcp.Transport {
	return &mcp.CommandTransport{Command: exec.Command(words[0], words[1:]...)}
}

// rawHost writes lines to a proxy (or a server) on stdio and returns every
// byte it wrote back, once it ends after its stdin closes.
func rawHost(t *testing.T, lines []string, words ...string) (stdout string, code int) {
	t.Helper()
	return rawHostEnv(t, nil, lines, words...)
}

// rawHostEnv is rawHost with env added to the environment.
func rawHostEnv(t *testing.T, env, lines []string, words ...string) (stdout string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, words[0], words[1:]...)
	cmd.Env = append(os.Environ(), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	replies := bufio.NewReader(out)
	var got strings.Builder
	for _, l := range lines {
		if _, err := io.WriteString(stdin, l+"\n"); err != nil {
			t.Fatal(err)
		}
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal([]byte(l), &m) == nil && len(m.ID) > 0 && !strings.Contains(l, `"result"`) {
			// A request: wait for its answer, as a host does.
			reply, err := replies.ReadString('\n')
			got.WriteString(reply)
			if err != nil {
				break
			}
		}
	}
	_ = stdin.Close()
	rest, _ := io.ReadAll(replies)
	got.Write(rest)
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return got.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return got.String(), 0
}

// handshakeLines are a legacy host's first messages and one call.
var handshakeLines = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw-host","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"mcpeek://fixture/counter"}}`,
}

// What the host reads through the proxy is, byte for byte, what the
// server wrote.
func TestProxyForwardsBytesAsTheyAre(t *testing.T) {
	t.Parallel()
	direct, code := rawHost(t, handshakeLines, mcpeekBin, "fixture")
	if code != 0 {
		t.Fatalf("the fixture exited %d", code)
	}
	through, code := rawHost(t, handshakeLines, mcpeekBin, "proxy", "--", mcpeekBin, "fixture")
	if code != 0 {
		t.Fatalf("the proxy exited %d once the host left", code)
	}
	if direct != through || strings.Count(direct, "\n") != 3 {
		t.Fatalf("through the proxy:\n%s\ndirectly:\n%s", through, direct)
	}
}

// A fake server: it writes what it reads to the file $1, says a line of
// not-JSON and answers an id nobody asked, then echoes nothing more.
const oddServer = `printf 'not json at all\n{"jsonrpc":"2.0","id":42,"result":{}}\n'; exec cat >"$1"`

// A line that is not JSON and a response to an unknown id are forwarded
// as a direct connection would see them, both ways, and noted in the wire
// log; a message over --max-message-size is refused with an error to its
// request.
func TestProxyForwardsOddMessagesAndNotesThem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	got, wire := filepath.Join(dir, "server-read"), filepath.Join(dir, "wire.jsonl")
	big := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"pad":"` + strings.Repeat("p", 3000) + `"}}}`
	sent := []string{"host garbage", `{"jsonrpc":"2.0","id":99,"result":{}}`, big}
	out, code := rawHost(t, sent, mcpeekBin, "proxy", "--wire-log", wire, "--max-message-size", "2KiB", "--", "sh", "-c", oddServer, "sh", got)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, "not json at all\n{\"jsonrpc\":\"2.0\",\"id\":42,\"result\":{}}\n") {
		t.Errorf("the host read %q", out)
	}
	if !strings.Contains(out, `"id":7,"error":{"code":-32600`) {
		t.Errorf("the request over --max-message-size got no error: %q", out)
	}
	read, _ := os.ReadFile(got)
	if want := "host garbage\n{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}\n"; string(read) != want {
		t.Errorf("the server read %q, want %q", read, want)
	}
	log, _ := os.ReadFile(wire)
	for _, note := range []string{"not a JSON message (send): host garbage", "not a JSON message (recv): not json at all",
		"the server answered id 42, which the host did not ask", "the host answered id 99", "over --max-message-size"} {
		if !bytes.Contains(log, []byte(note)) {
			t.Errorf("the wire log does not note %q:\n%s", note, log)
		}
	}
}

// A server that says something on stderr and dies on its first message.
const dyingServer = `read line; echo "out of cheese" >&2; exit 7`

// When the server dies, the request in flight gets a JSON-RPC error
// naming its exit status and last stderr line, and the proxy exits 3.
func TestProxyAnswersForADeadServer(t *testing.T) {
	t.Parallel()
	out, code := rawHost(t, handshakeLines[:1], mcpeekBin, "proxy", "--", "sh", "-c", dyingServer)
	if code != exitConnection {
		t.Errorf("the proxy exited %d, want %d", code, exitConnection)
	}
	var reply struct {
		ID    int `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &reply); err != nil || reply.ID != 1 {
		t.Fatalf("the host read %q", out)
	}
	if !strings.Contains(reply.Error.Message, "exit status 7") || !strings.Contains(reply.Error.Message, "out of cheese") {
		t.Errorf("the error does not say how the server ended: %q", reply.Error.Message)
	}
}

// When the host goes, the server is stopped, even one that ignores its
// stdin closing.
func TestProxyStopsTheServerWhenTheHostGoes(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	_, code := rawHost(t, nil, mcpeekBin, "proxy", "--", "sh", "-c", `echo $$ >"$1"; exec sleep 600`, "sh", pidFile)
	if code != 0 {
		t.Errorf("the proxy exited %d once the host left", code)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(must(os.ReadFile(pidFile)))))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the server (pid %d) still runs after the host left", pid)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A host's session recorded through the proxy becomes, with record
// --to-suite, a suite mcpeek test passes against the server.
func TestProxyRecordingBecomesASuite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec, suite := filepath.Join(dir, "host.jsonl"), filepath.Join(dir, "host.mcpeek.yaml")
	fixture := interopServer{name: "fixture", tool: "choose_option", answer: map[string]any{"choice": "option-a"}}
	goSDKSession(t, fixture, stdioTransport(mcpeekBin, "proxy", "--record", rec, "--", mcpeekBin, "fixture"), "")
	if r := mcpeek(t, "record", rec, "--to-suite", suite, "--", mcpeekBin, "fixture"); r.code != exitOK {
		t.Fatalf("record --to-suite: exit %d: %s", r.code, r.stderr)
	}
	text, _ := os.ReadFile(suite)
	if !strings.Contains(string(text), "choose_option") {
		t.Fatalf("the suite has no test of the call:\n%s", text)
	}
	if r := mcpeek(t, "test", suite); r.code != exitOK {
		t.Fatalf("mcpeek test: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// The entry mcpeek servers --wrap prints, in each host's format, is one
// mcpeek connects through: its tools are the server's own.
func TestProxyWrappedEntryConnects(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "claude.json")
	entry, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"fix": map[string]any{"command": mcpeekBin, "args": []string{"fixture"}}}})
	if err := os.WriteFile(cfg, entry, 0o600); err != nil {
		t.Fatal(err)
	}
	direct := mcpeek(t, "list", "tools", "--config", cfg, "@fix")
	if direct.code != exitOK {
		t.Fatalf("directly: exit %d: %s", direct.code, direct.stderr)
	}
	for _, format := range []string{"claude", "cursor", "vscode", "codex"} {
		out, err := exec.Command(mcpeekBin, "servers", "--config", cfg, "--wrap", "@fix", "--format", format).Output()
		if err != nil {
			t.Fatalf("%s: servers --wrap: %v", format, err)
		}
		wrapped := filepath.Join(dir, "wrapped-"+format+".json")
		if format == "codex" {
			wrapped = filepath.Join(dir, "config.toml")
		}
		if err := os.WriteFile(wrapped, out, 0o600); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), `"proxy"`) {
			t.Fatalf("%s: the entry does not run the proxy:\n%s", format, out)
		}
		through := mcpeek(t, "list", "tools", "--config", wrapped, "@fix")
		if through.code != exitOK || through.stdout != direct.stdout {
			t.Errorf("%s: through the wrapped entry: exit %d\n%s\n%s", format, through.code, through.stdout, through.stderr)
		}
	}
}

// A server that answers its first request with its credentials.
const leakyServer = `read line; printf '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"leaky","version":"1","title":"%s %s"}}}\n' "$API_KEY" "$SERVICE_TOKEN"; read line; read line; echo "stderr has $API_KEY" >&2`

// The server's credentials (-e, and the environment the host gives the
// proxy) reach the host as the server wrote them, and are redacted in the
// wire log and the recording.
func TestProxyRedactsSecretsOnlyInWhatItKeeps(t *testing.T) {
	t.Parallel()
	const apiKey, token = "sk-e2e-proxy-0123456789", "svc-e2e-token-9876543210"
	dir := t.TempDir()
	wire, rec := filepath.Join(dir, "wire.jsonl"), filepath.Join(dir, "rec.jsonl")
	lines := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	env := []string{"SERVICE_TOKEN=" + token} // as a host's config env gives it
	out, code := rawHostEnv(t, env, lines, mcpeekBin, "proxy", "--wire-log", wire, "--record", rec, "-e", "API_KEY="+apiKey, "--", "sh", "-c", leakyServer)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, apiKey+" "+token) {
		t.Errorf("the host did not get the server's bytes: %q", out)
	}
	for _, file := range []string{wire, rec} {
		kept, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(kept, []byte(apiKey)) || bytes.Contains(kept, []byte(token)) || !bytes.Contains(kept, []byte("[redacted] [redacted]")) {
			t.Errorf("%s is not redacted:\n%s", filepath.Base(file), kept)
		}
	}
}

// When the host stops the proxy (SIGTERM), the server is stopped at once
// and the proxy exits as interrupted.
func TestProxyPassesTheHostsSignalOn(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command(mcpeekBin, "proxy", "--", "sh", "-c", `echo $$ >"$1"; exec sleep 600`, "sh", pidFile)
	stdin, err := cmd.StdinPipe() // the host stays connected
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(waitForFile(t, pidFile))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
		t.Errorf("the proxy ended with %v, want exit %d", err, exitInterrupted)
	}
	if took := time.Since(start); took > closeGraceBound {
		t.Errorf("stopping took %v: the signal waited for a grace period", took)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the server (pid %d) still runs after the proxy was stopped", pid)
	}
}

// closeGraceBound is less than the grace a server gets once its stdin
// closes (2 s), which a signal passed on does not wait for.
const closeGraceBound = 1500 * time.Millisecond

// recvMessages are the messages a wire log says the server sent, in
// order.
func recvMessages(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e struct {
			Dir     string          `json:"dir"`
			Message json.RawMessage `json:"message"`
		}
		if json.Unmarshal([]byte(line), &e) == nil && e.Dir == "recv" {
			out = append(out, string(e.Message))
		}
	}
	return out
}

// mcpeek itself as the host, in both eras, over stdio and --listen:
// through the proxy, a call that asks a question gets the result, and
// the server's messages, byte for byte, of a direct connection.
func TestProxyBothEras(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era+"/stdio", func(t *testing.T) {
			t.Parallel()
			direct, through := eraCall(t, era, []string{"--", mcpeekBin, "fixture"}, []string{"--", mcpeekBin, "proxy", "--", mcpeekBin, "fixture"})
			sameEraCall(t, direct, through)
		})
		t.Run(era+"/listen", func(t *testing.T) {
			t.Parallel()
			url := fixtureHTTP(t, era)
			direct, through := eraCall(t, era, []string{url}, []string{startListeningProxy(t, url)})
			sameEraCall(t, direct, through)
		})
	}
}

// eraCall calls choose_option in era against the server the words name
// directly, then through the proxy, and returns each run's output and
// the server's messages.
func eraCall(t *testing.T, era string, direct, through []string) (d, p [2]string) {
	t.Helper()
	run := func(words []string) [2]string {
		wire := filepath.Join(t.TempDir(), "wire.jsonl")
		args := append([]string{"call", "choose_option", "--protocol", era, "--answers", "testdata/answers/choose-option-a.json", "--wire-log", wire}, words...)
		r := mcpeek(t, args...)
		if r.code != exitOK {
			t.Fatalf("%v: exit %d: %s", words, r.code, r.stderr)
		}
		return [2]string{r.stdout, strings.Join(recvMessages(t, wire), "\n")}
	}
	return run(direct), run(through)
}

// requestState is a 2026-07-28 round's state, which the fixture signs
// with a key of its own process: two processes' differ.
var requestState = regexp.MustCompile(`"requestState":"[^"]*"`)

func sameEraCall(t *testing.T, direct, through [2]string) {
	t.Helper()
	if direct[0] != through[0] || !strings.Contains(direct[0], "option-a") {
		t.Errorf("through the proxy the call printed\n%s\nbut directly\n%s", through[0], direct[0])
	}
	for _, side := range []*[2]string{&direct, &through} {
		side[1] = requestState.ReplaceAllString(side[1], `"requestState":"(signed by the process)"`)
	}
	if direct[1] != through[1] {
		t.Errorf("through the proxy the server sent\n%s\nbut directly\n%s", through[1], direct[1])
	}
}

// A session recorded through the proxy in the 2026-07-28 era, and one
// over --listen, and ones across transports (a stdio host in front of a
// URL, a host on --listen in front of a command), become suites mcpeek
// test passes too.
func TestProxyRecordingBecomesASuiteInEachEraAndTransport(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, era string
		server    func(t *testing.T, rec string) []string // the host's server: through the proxy, recording to rec
	}{
		{"modern/stdio", "modern", func(t *testing.T, rec string) []string {
			return []string{"--", mcpeekBin, "proxy", "--record", rec, "--", mcpeekBin, "fixture"}
		}},
		{"legacy/listen", "legacy", func(t *testing.T, rec string) []string {
			return []string{startListeningProxy(t, fixtureHTTP(t, "legacy"), "--record", rec)}
		}},
		{"legacy/stdio-to-url", "legacy", func(t *testing.T, rec string) []string {
			return []string{"--", mcpeekBin, "proxy", "--record", rec, fixtureHTTP(t, "legacy")}
		}},
		{"modern/listen-to-command", "modern", func(t *testing.T, rec string) []string {
			return []string{startListeningCommandProxy(t, []string{mcpeekBin, "fixture"}, "--record", rec)}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := filepath.Join(t.TempDir(), "host.jsonl")
			server := c.server(t, rec)
			args := append([]string{"call", "choose_option", "--protocol", c.era, "--answers", "testdata/answers/choose-option-a.json"}, server...)
			if r := mcpeek(t, args...); r.code != exitOK {
				t.Fatalf("the host's call: exit %d: %s", r.code, r.stderr)
			}
			proxyURL := "" // the host's stdio server: ended with the host
			if server[0] != "--" {
				proxyURL = server[0] // the proxy on --listen
			}
			recorded(t, rec, "accept: option-a", proxyURL)
			recordingPasses(t, rec, mcpeekBin, "fixture")
		})
	}
}

// recorded fails the test unless the recording holds want once the proxy
// that wrote it has ended: the one listening at proxyURL is ended (on
// SIGTERM it closes the recording, then exits); "" is a proxy the host
// ran as its stdio server, which ended before the host did.
func recorded(t *testing.T, rec, want, proxyURL string) {
	t.Helper()
	if proxyURL != "" {
		endListening(t, proxyURL)
	}
	if b, err := os.ReadFile(rec); err != nil || !strings.Contains(string(b), want) {
		t.Fatalf("%s does not hold %q (%v)", rec, want, err)
	}
}
