package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/oauthtest"
)

// mcpeek itself as the host, in both eras, across transports: a stdio
// host in front of the fixture's URL, and a host on --listen in front of
// its command. A call that asks a question gets the result of a direct
// connection, and each message the server sent one way was sent the
// other, byte for byte but for its id: mcpeek as a client lists the tools
// first in 2026-07-28 over HTTP and not over stdio, which shifts the ids
// and adds that list to one side.
func TestProxyCrossingBothEras(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era+"/stdio-to-url", func(t *testing.T) {
			t.Parallel()
			url := fixtureHTTP(t, era)
			direct, through := eraCall(t, era, []string{url}, []string{"--", mcpeekBin, "proxy", url})
			sameCrossedCall(t, direct, through)
		})
		t.Run(era+"/listen-to-command", func(t *testing.T) {
			t.Parallel()
			url := startListeningCommandProxy(t, []string{mcpeekBin, "fixture"})
			direct, through := eraCall(t, era, []string{"--", mcpeekBin, "fixture"}, []string{url})
			sameCrossedCall(t, direct, through)
		})
	}
}

// messageID is a response's id, which the two sides of a crossing may
// number differently.
var messageID = regexp.MustCompile(`^\{"jsonrpc":"2.0","id":\d+,`)

// sameCrossedCall is sameEraCall for a host whose transport is not the
// server's: the same output, and the same server messages, ids and the
// one tools/list aside.
func sameCrossedCall(t *testing.T, direct, through [2]string) {
	t.Helper()
	if direct[0] != through[0] || !strings.Contains(direct[0], "option-a") {
		t.Errorf("through the proxy the call printed\n%s\nbut directly\n%s", through[0], direct[0])
	}
	messages := func(side string) []string {
		var all []string
		for _, m := range strings.Split(side, "\n") {
			m = requestState.ReplaceAllString(m, `"requestState":"(signed by the process)"`)
			if m = messageID.ReplaceAllString(m, `{"jsonrpc":"2.0","id":N,`); !strings.Contains(m, `"tools":[`) {
				all = append(all, m)
			}
		}
		slices.Sort(all) // ids aside, in any order: each as many times
		return all
	}
	if d, p := messages(direct[1]), messages(through[1]); !slices.Equal(d, p) {
		t.Errorf("through the proxy the server sent\n%s\nbut directly\n%s", through[1], direct[1])
	}
}

// --answer across transports, in both eras: the proxy answers the
// fixture's two rounds from an answers file for a host that would
// decline, whether it stands between a stdio host and the fixture's URL
// or between a host on --listen and its command.
func TestProxyCrossingAnswers(t *testing.T) {
	t.Parallel()
	answering := []string{"--answer=always", "--answers", "testdata/answers/multi-round.json"}
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era+"/stdio-to-url", func(t *testing.T) {
			t.Parallel()
			url := fixtureHTTP(t, era)
			crossedAnswer(t, era, append(append([]string{"--", mcpeekBin, "proxy"}, answering...), url)...)
		})
		t.Run(era+"/listen-to-command", func(t *testing.T) {
			t.Parallel()
			crossedAnswer(t, era, startListeningCommandProxy(t, []string{mcpeekBin, "fixture"}, answering...))
		})
	}
}

// crossedAnswer calls multi_round in era through the proxy the words
// name, as a host that would decline: the answer it gets is the proxy's.
func crossedAnswer(t *testing.T, era string, server ...string) {
	t.Helper()
	r := mcpeek(t, append([]string{"call", "multi_round", "--protocol", era, "--on-elicit", "decline"}, server...)...)
	if r.code != exitOK || !strings.Contains(r.stdout, "name: Grace, confirm: true") {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
	}
}

// A stdio host in front of a URL nothing answers at gets an error to its
// request naming the server, and the proxy keeps its stdout the host's.
func TestProxyCrossingToAnUnreachableURL(t *testing.T) {
	t.Parallel()
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", freePort(t))
	out, code := rawHost(t, handshakeLines[:1], mcpeekBin, "proxy", url)
	if code != 0 {
		t.Errorf("the proxy exited %d once the host left", code)
	}
	var reply struct {
		ID    int `json:"id"`
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &reply); err != nil || reply.ID != 1 {
		t.Fatalf("the host read %q", out)
	}
	if !strings.Contains(reply.Error.Message, url) || !strings.Contains(reply.Error.Message, "could not be reached") {
		t.Errorf("the error does not name the server: %q", reply.Error.Message)
	}
}

// A host on --listen in front of a command that dies gets, on the stream
// of its request, an error naming the exit status and the server's last
// stderr line; the proxy keeps listening, and the next initialize starts
// the server anew.
func TestProxyCrossingAnswersForADeadCommand(t *testing.T) {
	t.Parallel()
	url := startListeningCommandProxy(t, []string{"sh", "-c", dyingServer})
	for range 2 {
		events := postEvents(t, url, "", handshakeLines[0])
		if len(events) != 1 || !strings.Contains(events[0], `"id":1,"error"`) ||
			!strings.Contains(events[0], "exit status 7") || !strings.Contains(events[0], "out of cheese") {
			t.Fatalf("the host read %q", events)
		}
	}
}

// A host on --listen in front of a command: each initialize is a session
// of its own (a server process), named by an id of the proxy's; a
// message for a session that is not there is a 404, and DELETE ends the
// session's server.
func TestProxyCrossingSessions(t *testing.T) {
	t.Parallel()
	pids := filepath.Join(t.TempDir(), "pids")
	// A server that notes its pid, then answers initialize as the fixture.
	server := []string{"sh", "-c", `echo $$ >>"$1"; exec "$2" fixture`, "sh", pids, mcpeekBin}
	url := startListeningCommandProxy(t, server)
	first, second := initialize(t, url), initialize(t, url)
	if first == "" || second == "" || first == second {
		t.Fatalf("session ids %q and %q: want two of their own", first, second)
	}
	if code := postStatus(t, url, "not-a-session", handshakeLines[2]); code != http.StatusNotFound {
		t.Errorf("a message for an unknown session: HTTP %d, want 404", code)
	}
	events := postEvents(t, url, first, handshakeLines[2])
	if len(events) != 1 || !strings.Contains(events[0], `"tools"`) {
		t.Errorf("tools/list in the first session: %q", events)
	}
	req, _ := http.NewRequest(http.MethodDelete, url, nil)
	req.Header.Set("Mcp-Session-Id", first)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: %v %v", err, resp)
	}
	resp.Body.Close()
	if code := postStatus(t, url, first, handshakeLines[2]); code != http.StatusNotFound {
		t.Errorf("a message for a deleted session: HTTP %d, want 404", code)
	}
	started := strings.Split(waitForFile(t, pids), "\n")
	if len(started) != 2 {
		t.Fatalf("%d servers started for two sessions", len(started))
	}
	// The first session's server (sh became the fixture: the pid is its)
	// ends; the second's runs on.
	firstPid, err := strconv.Atoi(started[0])
	if err != nil {
		t.Fatal(err)
	}
	waitGone(t, firstPid)
	if secondPid, _ := strconv.Atoi(started[1]); syscall.Kill(secondPid, 0) != nil {
		t.Errorf("the second session's server (pid %d) ended with the first's DELETE", secondPid)
	}
}

// waitGone waits until process pid has ended and been reaped by its
// parent (the proxy), polling: it is not this process's child, so there
// is no exit to wait for.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("the server (pid %d) still runs", pid)
		}
		time.Sleep(10 * time.Millisecond) // polling another process's child, with a deadline
	}
}

// initialize opens a session on url and returns its id, the handshake done.
func initialize(t *testing.T, url string) string {
	t.Helper()
	resp := post(t, url, "", handshakeLines[0])
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	id := resp.Header.Get("Mcp-Session-Id")
	if code := postStatus(t, url, id, handshakeLines[1]); code != http.StatusAccepted {
		t.Fatalf("notifications/initialized: HTTP %d", code)
	}
	return id
}

func post(t *testing.T, url, session, msg string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func postStatus(t *testing.T, url, session, msg string) int {
	t.Helper()
	resp := post(t, url, session, msg)
	resp.Body.Close()
	return resp.StatusCode
}

// postEvents POSTs msg and returns the data of each event of the answer.
func postEvents(t *testing.T, url, session, msg string) []string {
	t.Helper()
	resp := post(t, url, session, msg)
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
		t.Fatalf("POST: HTTP %d %s", resp.StatusCode, ct)
	}
	var events []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			events = append(events, data)
		}
	}
	return events
}

// The token mcpeek's store holds for a URL server goes with what the
// proxy forwards there, from a stdio host and from a host on --listen,
// and never into the wire log, the recording or stderr. Without one, the
// proxy says on stderr to log in, and starts no login itself.
func TestProxyAuthorizesFromTheStore(t *testing.T) {
	t.Parallel()
	as := oauthtest.New()
	defer as.Close()
	config := t.TempDir()
	env := []string{"XDG_CONFIG_HOME=" + config} // a token store of this test's own
	call := append(handshakeLines[:2:2], `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo_token","arguments":{}}}`)

	// No token yet: the host gets the server's refusal, the person a word.
	out, stderr := proxyRun(t, env, call[:1], "proxy", as.URL)
	if !strings.Contains(out, `"id":1,"error"`) || !strings.Contains(stderr, "mcpeek auth login "+as.URL) {
		t.Fatalf("without a token: the host read %q; stderr %q", out, stderr)
	}
	if n := len(as.AccessTokens()); n != 0 {
		t.Fatalf("%d tokens issued: the proxy logged in", n)
	}

	token := as.LoginInto(t, filepath.Join(config, "mcpeek", "auth.json"))
	dir := t.TempDir()
	wire, rec := filepath.Join(dir, "wire.jsonl"), filepath.Join(dir, "rec.jsonl")
	out, stderr = proxyRun(t, env, call, "proxy", "--wire-log", wire, "--record", rec, as.URL)
	if !strings.Contains(out, "refused: Authorization: Bearer "+token) {
		t.Fatalf("the server did not get the stored token: the host read %q; stderr %q", out, stderr)
	}
	kept := stderr
	for _, f := range []string{wire, rec} {
		b, _ := os.ReadFile(f)
		kept += string(b)
		if !strings.Contains(string(b), "Bearer [redacted]") {
			t.Errorf("%s does not hold the redacted answer:\n%s", filepath.Base(f), b)
		}
	}
	if strings.Contains(kept, token) {
		t.Errorf("the token is in what the proxy keeps or says:\n%s", kept)
	}

	// On --listen, a host that sends no authorization of its own.
	cmd := exec.Command(mcpeekBin, "proxy", "--listen", "127.0.0.1:0", "--", as.URL)
	cmd.Env = append(os.Environ(), env...)
	base := startURLServer(t, cmd, `http://127\.0\.0\.1:\d+/`)
	resp := post(t, strings.TrimSuffix(base, "/")+"/mcp", "", handshakeLines[0])
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("initialize on --listen: HTTP %s, want 200 with the stored token", resp.Status)
	}
}

// proxyRun runs mcpeek with env added as rawHostEnv does, and returns
// its stdout and stderr once it ends.
func proxyRun(t *testing.T, env, lines []string, args ...string) (stdout, stderr string) {
	t.Helper()
	errFile := filepath.Join(t.TempDir(), "stderr")
	stdout, _ = rawHostEnv(t, env, lines, append([]string{"sh", "-c", `exec "$@" 2>"$0"`, errFile, mcpeekBin}, args...)...)
	b, err := os.ReadFile(errFile)
	if err != nil {
		t.Fatal(err)
	}
	return stdout, string(b)
}
