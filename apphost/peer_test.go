package apphost

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/mcpeek/mcpeek/internal/loopback"
)

// A table as a little-endian Linux kernel writes it: a listener on
// 127.0.0.1:34527 of root's, a connection in TIME_WAIT held by nobody
// (inode 0), and, in tcp6, a connection of user 1000 from [::1]:41000 to
// [::1]:8123 and one from 127.0.0.1 through a dual-stack socket.
const (
	sampleTCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:86DF 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2910108 2 000000006588593d 100 0 0 10 0
   3: 0100007F:A91F 0100007F:DC56 06 00000000:00000000 03:000006DE 00000000     0        0 0 3 0000000029f8cfbc
`
	sampleTCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:A028 00000000000000000000000001000000:1FBB 01 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 20 4 30 10 -1
   1: 0000000000000000FFFF00000100007F:A029 0000000000000000FFFF00000100007F:1FBB 01 00000000:00000000 00:00000000 00000000  1001        0 4343 1 0000000000000000 20 4 30 10 -1
`
)

func littleEndian(t *testing.T) {
	t.Helper()
	var b [2]byte
	binary.NativeEndian.PutUint16(b[:], 1)
	if b[0] != 1 {
		t.Skip("the sample tables are a little-endian kernel's")
	}
}

func TestSockTableParse(t *testing.T) {
	littleEndian(t)
	var rows []sockRow
	if err := parseSockTable(strings.NewReader(sampleTCP), func(s sockRow) bool { rows = append(rows, s); return true }); err != nil {
		t.Fatal(err)
	}
	want := []sockRow{
		{local: netip.MustParseAddrPort("127.0.0.1:34527"), remote: netip.MustParseAddrPort("0.0.0.0:0"), state: tcpListen, uid: 0, inode: 2910108},
		{local: netip.MustParseAddrPort("127.0.0.1:43295"), remote: netip.MustParseAddrPort("127.0.0.1:56406"), state: 6, uid: 0, inode: 0},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("parsed %v, want %v", rows, want)
	}
	rows = nil
	if err := parseSockTable(strings.NewReader(sampleTCP6), func(s sockRow) bool { rows = append(rows, s); return true }); err != nil {
		t.Fatal(err)
	}
	want = []sockRow{
		{local: netip.MustParseAddrPort("[::1]:41000"), remote: netip.MustParseAddrPort("[::1]:8123"), state: 1, uid: 1000, inode: 4242},
		{local: netip.MustParseAddrPort("[::ffff:127.0.0.1]:41001"), remote: netip.MustParseAddrPort("[::ffff:127.0.0.1]:8123"), state: 1, uid: 1001, inode: 4343},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("parsed %v, want %v", rows, want)
	}
	for _, bad := range []string{"x\n0: zz:1 0:0 0A 0:0 0:0 0 0 0 1", "x\n0: 0100007F:86DF 00000000:0000 0A", "x\n0: 0100007F:86DF 00000000:0000 0A 0:0 0:0 0 uid 0 1"} {
		if err := parseSockTable(strings.NewReader(bad), func(sockRow) bool { return true }); err == nil {
			t.Errorf("%q was read without an error", bad)
		}
	}
}

// The owner of a connection's other end is found in either table, an IPv4
// peer also in its IPv4-mapped form; a socket no process holds, or none
// at all, is no owner.
func TestPeerUIDFromTables(t *testing.T) {
	littleEndian(t)
	dir := t.TempDir()
	for name, text := range map[string]string{"tcp": sampleTCP, "tcp6": sampleTCP6} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		ours, peer string
		uid        int
		ok         bool
	}{
		{"[::1]:8123", "[::1]:41000", 1000, true},
		{"127.0.0.1:8123", "127.0.0.1:41001", 1001, true},
		{"[::1]:41000", "[::1]:8123", 0, false}, // our own end is not the peer's
		{"127.0.0.1:56406", "127.0.0.1:43295", 0, false},
		{"127.0.0.1:1", "127.0.0.1:2", 0, false},
	} {
		uid, err := peerUID(dir, netip.MustParseAddrPort(tc.ours), netip.MustParseAddrPort(tc.peer))
		if (err == nil) != tc.ok || uid != tc.uid {
			t.Errorf("%s from %s: uid %d, %v; want %d, found %v", tc.ours, tc.peer, uid, err, tc.uid, tc.ok)
		}
	}
	if _, err := peerUID(t.TempDir(), netip.MustParseAddrPort("[::1]:8123"), netip.MustParseAddrPort("[::1]:41000")); err == nil {
		t.Error("a folder without tables gave an owner")
	}
}

// procNet skips where the kernel has no socket tables to read.
func procNet(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		t.Skipf("no socket tables here: %v", err)
	}
}

// With the real kernel's tables: a connection made to a listener of ours
// is found, on each loopback, as this user's, the socket held.
func TestPeerUIDOfARealConnection(t *testing.T) {
	procNet(t)
	for _, network := range []string{"tcp4", "tcp6"} {
		host := map[string]string{"tcp4": "127.0.0.1", "tcp6": "::1"}[network]
		l, err := net.Listen(network, net.JoinHostPort(host, "0"))
		if err != nil {
			if network == "tcp6" && loopback.NoIPv6(err) {
				continue
			}
			t.Fatal(err)
		}
		defer l.Close()
		if err := ownersReadable("/proc/net", []net.Listener{l}); err != nil {
			t.Errorf("%s: the tables do not show our listener: %v", network, err)
		}
		client, err := net.Dial(network, l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer client.Close()
		server, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		defer server.Close()
		if uid, err := connUID("/proc/net", server); err != nil || uid != os.Getuid() {
			t.Errorf("%s: the peer's owner is %d, %v; want %d", network, uid, err, os.Getuid())
		}
		// The client's own end names the listener's side as its peer: the
		// accepted socket, ours too.
		if uid, err := connUID("/proc/net", client); err != nil || uid != os.Getuid() {
			t.Errorf("%s: the accepted socket's owner is %d, %v; want %d", network, uid, err, os.Getuid())
		}
	}
}

// launchedURL waits for what the launcher was given.
func launchedURL(t *testing.T, launched chan string) string {
	t.Helper()
	select {
	case u := <-launched:
		return u
	case <-time.After(patience):
		t.Fatal("nothing was launched")
		return ""
	}
}

// getLaunch GETs a launch URL without following its redirect.
func getLaunch(t *testing.T, raw string) (code int, location, body string) {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(raw)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

var launchURLPattern = regexp.MustCompile(`^http://127\.0\.0\.1:\d+/r/[A-Za-z0-9_-]{43}$`)

// Where the kernel shows who owns a connection, the launcher (here
// --open-with, noting its arguments) is given a launch URL that holds no
// token; asked by this user's program it leads once to the session's link,
// and a second time says it was used.
func TestLaunchURLLeadsOnceToTheSession(t *testing.T) {
	procNet(t)
	argv := filepath.Join(t.TempDir(), "argv")
	open := OpenWith(fmt.Sprintf(`printf '%%s\n' "$0" "$@" > %q`, argv))
	launched := make(chan string, 1)
	e := newEnv(t, func(o *Options) {
		o.Open = nil
		o.Launch = func(u string) error { launched <- u; return open(u) }
	})
	c := e.render(context.Background(), sampleRequest("e-1"))
	got := launchedURL(t, launched)
	if !launchURLPattern.MatchString(got) || !strings.HasPrefix(got, e.h.BridgeOrigin()) {
		t.Fatalf("launched %q, want %s/r/ID", got, e.h.BridgeOrigin())
	}
	var args []byte
	for deadline := time.Now().Add(patience); len(args) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the --open-with command did not run")
		}
		args, _ = os.ReadFile(argv)
	}
	code, location, _ := getLaunch(t, got)
	if code != http.StatusSeeOther {
		t.Fatalf("the launch URL answered %d, want 303", code)
	}
	key, token := e.parseLink(location)
	if strings.Contains(string(args), token) || strings.Contains(got, token) {
		t.Errorf("the launcher's arguments %q hold the token", args)
	}
	code, _, body := getLaunch(t, got)
	if code != http.StatusGone || !strings.Contains(body, "already used") {
		t.Errorf("a second use: %d %q, want 410 saying it was used", code, body)
	}
	e.complete(c, key, token, `{"action":"decline"}`)
	if code, _, body := getLaunch(t, got); code != http.StatusNotFound || !strings.Contains(body, "not valid") {
		t.Errorf("after the request: %d %q, want 404", code, body)
	}
}

// Where the socket tables cannot be read, the launcher is given a launch
// file (TestLaunchFileKeepsTheTokenOutOfArgv), and launch URLs lead
// nowhere.
func TestNoSocketTablesFallBackToTheLaunchFile(t *testing.T) {
	launched := make(chan string, 1)
	e := newEnv(t, func(o *Options) {
		o.Open = nil
		o.Launch = func(u string) error { launched <- u; return nil }
		o.procNet = t.TempDir()
	})
	c := e.render(context.Background(), sampleRequest("e-1"))
	got := launchedURL(t, launched)
	u, err := url.Parse(got)
	if err != nil || u.Scheme != "file" {
		t.Fatalf("launched %q, want a file:// URL", got)
	}
	if !e.logged("the browser is given launch files") {
		t.Error("the fallback is not logged")
	}
	s := e.h.session("e-1")
	if code, _, _ := getLaunch(t, e.h.launchURL(s)); code != http.StatusNotFound {
		t.Errorf("a launch URL answered %d without socket tables, want 404", code)
	}
	key, token := e.parseLink(launchTarget(t, u.Path))
	e.complete(c, key, token, `{"action":"decline"}`)
}

// getAsEnv names the URL the test binary GETs when run as another user;
// with tokenAsEnv set, it opens a WebSocket there instead and sends that
// token, as the bridge page does.
const getAsEnv, tokenAsEnv = "MCPEEK_TEST_GET_AS", "MCPEEK_TEST_TOKEN_AS"

// getAs GETs target, prints the status and body (or the WebSocket's first
// message), and is the exit code.
func getAs(target string) int {
	if token := os.Getenv(tokenAsEnv); token != "" {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		u, _ := url.Parse(target)
		c, _, err := websocket.Dial(ctx, target, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://" + u.Host}}})
		if err != nil {
			fmt.Println(err)
			return 1
		}
		defer c.CloseNow()
		if err := c.Write(ctx, websocket.MessageText, []byte(token)); err != nil {
			fmt.Println(err)
			return 1
		}
		_, msg, err := c.Read(ctx)
		fmt.Printf("%s%v\n", msg, err)
		return 0
	}
	hc := &http.Client{Timeout: patience,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(target)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	fmt.Printf("%d\n%s", resp.StatusCode, b)
	return 0
}

// runAs runs this test binary as uid (a copy others may run: the build's
// folder is its owner's alone) to GET target, and returns what it printed.
func runAs(t *testing.T, uid int, target string, env ...string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "mcpeek-test-as-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	bin := filepath.Join(dir, "apphost.test")
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env = append([]string{getAsEnv + "=" + target}, env...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the GET as user %d: %v: %s", uid, err, out)
	}
	return string(out)
}

// A program of another user that reads the launch URL from the browser's
// arguments and asks for it first is refused, saying why, and the URL still
// leads the person's browser to the session. The session's token, handed
// to the person's browser alone, opens its WebSocket only from there: the
// same token from another user's program is refused.
func TestLaunchURLRefusesAnotherUser(t *testing.T) {
	procNet(t)
	if os.Getuid() != 0 {
		t.Skip("needs root, to run a program as another user (nobody)")
	}
	launched := make(chan string, 1)
	e := newEnv(t, func(o *Options) {
		o.Open = nil
		o.Launch = func(u string) error { launched <- u; return nil }
	})
	c := e.render(context.Background(), sampleRequest("e-1"))
	got := launchedURL(t, launched)
	out := runAs(t, 65534, got)
	if !strings.HasPrefix(out, "403\n") || !strings.Contains(out, "another user (uid 65534)") {
		t.Errorf("user 65534 got %q, want 403 saying why", out)
	}
	if !e.logged("refused a launch URL opened by a program of user 65534") {
		t.Error("the refusal is not logged")
	}
	code, location, _ := getLaunch(t, got)
	if code != http.StatusSeeOther {
		t.Fatalf("the person's GET after another user's: %d, want 303", code)
	}
	key, token := e.parseLink(location)
	out = runAs(t, 65534, e.wsURL(key), tokenAsEnv+"="+token)
	if !strings.Contains(out, `"mcpeek":"refused"`) || !strings.Contains(out, "not valid") {
		t.Errorf("user 65534's WebSocket with the token got %q, want it refused", out)
	}
	if !e.logged("the socket's other end is not this user's: a program of user 65534") {
		t.Error("the WebSocket's refusal is not logged")
	}
	e.complete(c, key, token, `{"action":"decline"}`)
}
