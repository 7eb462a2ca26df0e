package cli

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/internal/doctor"
	"github.com/mcpeek/mcpeek/internal/oauthtest"
	"github.com/mcpeek/mcpeek/mcpclient/oauth"
)

// doctorJSON runs mcpeek doctor --json and reads its report.
func doctorJSON(t *testing.T, args ...string) (int, doctor.Report, string) {
	t.Helper()
	code, stdout, stderr := run(append([]string{"doctor", "--json", "--connect-timeout", "10s"}, args...)...)
	var r doctor.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("exit %d, stdout %q, stderr %q: %v", code, stdout, stderr, err)
	}
	return code, r, stderr
}

// steps are the report's steps as "name:status".
func steps(r doctor.Report) string {
	var out []string
	for _, s := range r.Steps {
		out = append(out, s.Step+":"+s.Status)
	}
	return strings.Join(out, " ")
}

// last is the step the report ended with.
func last(r doctor.Report) doctor.Step { return r.Steps[len(r.Steps)-1] }

// wantStop checks that the doctor stopped at the step named, failing,
// with exit 3, a detail and a hint that say what the test expects.
func wantStop(t *testing.T, code int, r doctor.Report, step, detail, hint string) {
	t.Helper()
	s := last(r)
	if code != exitConnection || r.OK || s.Step != step || s.Status != doctor.StatusFail ||
		!strings.Contains(s.Detail, detail) || !strings.Contains(s.Hint, hint) {
		t.Errorf("exit %d, steps %s, last %+v; want exit 3 stopping at %s with %q and hint %q", code, steps(r), s, step, detail, hint)
	}
}

// TestDoctorClosedPort: nothing listens: the doctor stops at connect.
func TestDoctorClosedPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	code, r, _ := doctorJSON(t, "http://"+addr+"/mcp")
	wantStop(t, code, r, "connect", "nothing listens on "+addr, "is the server running")
	if steps(r) != "resolve:ok connect:fail" || r.Transport != "http" {
		t.Errorf("steps %s, transport %s", steps(r), r.Transport)
	}
}

// TestDoctorTLS: a server whose certificate comes from a CA the system
// does not know fails at tls, with --ca-file as the fix; with that CA
// file every step passes; --insecure passes with a warning.
func TestDoctorTLS(t *testing.T) {
	srv := httptest.NewTLSServer(fixture.HTTPHandler(fixture.Options{}, false))
	defer srv.Close()
	url := srv.URL + "/mcp"
	code, r, _ := doctorJSON(t, url)
	wantStop(t, code, r, "tls", "issued by Acme Co, valid until", "--ca-file")
	if !strings.Contains(last(r).Detail, "signed by an authority mcpeek does not know") {
		t.Errorf("tls detail %q", last(r).Detail)
	}

	ca := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(ca, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	code, r, _ = doctorJSON(t, "--ca-file", ca, url)
	want := "resolve:ok connect:ok tls:ok http:ok auth:ok negotiate:ok capabilities:ok tools/list:ok resources/list:ok prompts/list:ok"
	if code != exitOK || !r.OK || steps(r) != want {
		t.Errorf("--ca-file: exit %d, steps %s; want %s\n%+v", code, steps(r), want, r.Steps)
	}
	if tls := r.Steps[2]; !strings.Contains(tls.Detail, "the chain and the name check out") {
		t.Errorf("tls detail %q", tls.Detail)
	}

	code, r, stderr := doctorJSON(t, "--insecure", url)
	if code != exitOK || r.Steps[2].Status != doctor.StatusWarn || !strings.Contains(r.Steps[2].Detail, "not verified (--insecure)") ||
		!strings.Contains(stderr, "--insecure: TLS certificates are not verified") {
		t.Errorf("--insecure: exit %d, tls %+v, stderr %q", code, r.Steps[2], stderr)
	}
}

// TestDoctorNotMCP: an HTTP server that is not MCP fails at http, with
// the path as the fix.
func TestDoctorNotMCP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/gone":
			http.NotFound(w, r)
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"status":"ok"}`)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><body>Welcome</body></html>")
		}
	}))
	defer srv.Close()
	for path, detail := range map[string]string{
		"/":     "a text/html answer is not MCP",
		"/gone": "404 Not Found, text/plain: nothing at this path",
		"/json": "not a JSON-RPC response",
	} {
		code, r, _ := doctorJSON(t, srv.URL+path)
		wantStop(t, code, r, "http", detail, "check the URL's path")
	}
}

// TestDoctorAuth: a 401 whose metadata names an authorization server: the
// doctor finds it and, with no stored token, says to log in; with one, it
// goes on through the handshake with it.
func TestDoctorAuth(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // a token store of this test's own
	as := oauthtest.New()
	defer as.Close()
	code, r, _ := doctorJSON(t, as.URL)
	wantStop(t, code, r, "auth", "the authorization server "+as.Issuer, "mcpeek auth login "+as.URL)
	if http := r.Steps[2]; !strings.Contains(http.Detail, "POST → 401 Unauthorized") || !strings.HasSuffix(http.Detail, ": the server asks for authorization") {
		t.Errorf("http step %+v", http)
	}

	// Log in once, as `mcpeek auth login` would, into the test's store.
	path, err := oauth.DefaultStorePath()
	if err != nil {
		t.Fatal(err)
	}
	as.LoginInto(t, path)
	code, r, _ = doctorJSON(t, as.URL)
	if code != exitOK || !strings.Contains(r.Steps[3].Detail, "a stored token from "+as.Issuer+" will be used") {
		t.Errorf("with a stored token: exit %d, steps %s, auth %+v", code, steps(r), r.Steps[3])
	}
}

// TestDoctorAuthWithoutMetadata: a 401 that leads to no metadata fails at
// auth and says what the server must serve.
func TestDoctorAuthWithoutMetadata(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="x"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	code, r, _ := doctorJSON(t, srv.URL+"/mcp")
	wantStop(t, code, r, "auth", "no usable protected-resource metadata", "/.well-known/oauth-protected-resource")
}

// TestDoctorStdio: a command that is not there stops at command; one that
// writes a banner on stdout stops at start, quoting it; one that exits
// says so with its stderr.
func TestDoctorStdio(t *testing.T) {
	code, r, _ := doctorJSON(t, "--", "mcpeek-no-such-server")
	wantStop(t, code, r, "command", "mcpeek-no-such-server is not on the PATH", "install it")
	if r.Transport != "stdio" {
		t.Errorf("transport %q", r.Transport)
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	code, r, _ = doctorJSON(t, "--", "sh", "-c", "echo 'Server listening on stdio'; cat")
	wantStop(t, code, r, "start", `stdout line 1 is not JSON-RPC: "Server listening on stdio"`, "send logs and banners to stderr")
	code, r, _ = doctorJSON(t, "--", "sh", "-c", "echo 'missing API_KEY' >&2; exit 2")
	wantStop(t, code, r, "start", "exited before answering initialize: exit status 2; stderr: missing API_KEY", "run the command by hand")
}

// TestDoctorText: the text report shows each step, its fix, and the step
// it stopped at; the embedded fixture passes every step.
func TestDoctorText(t *testing.T) {
	code, stdout, _ := run("doctor", "--", "mcpeek-no-such-server")
	want := []string{"mcpeek doctor: mcpeek-no-such-server\n", "  ✗ command ", "mcpeek-no-such-server is not on the PATH\n", "    fix: install it", "stopped at command\n"}
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("exit %d, stdout lacks %q:\n%s", code, w, stdout)
		}
	}
	code, stdout, _ = run("doctor")
	if code != exitOK || !strings.Contains(stdout, "  ✓ negotiate ") || !strings.HasSuffix(stdout, "all 5 steps passed\n") {
		t.Errorf("embedded: exit %d\n%s", code, stdout)
	}
}

// TestDoctorStreamStaysOpen: a server that answers the probe on an event
// stream and keeps it open passes the http step at its first event, not
// at a timeout.
func TestDoctorStreamStaysOpen(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "no", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	_, r, _ := doctorJSON(t, "--connect-timeout", "3s", srv.URL)
	if len(r.Steps) < 3 || r.Steps[2].Step != "http" || r.Steps[2].Status != doctor.StatusOK || r.Steps[2].Ms > 2000 {
		t.Errorf("steps %+v", r.Steps)
	}
}

// TestDoctorCommandPath: a relative command is looked for in the server's
// folder; a file that is not executable says so.
func TestDoctorCommandPath(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "server.sh"), "#!/bin/sh\n")
	cfg := filepath.Join(dir, ".mcp.json")
	writeFile(t, cfg, `{"mcpServers": {"s": {"command": "./server.sh"}}}`)
	code, r, _ := doctorJSON(t, "--config", cfg)
	wantStop(t, code, r, "command", filepath.Join(dir, "server.sh"), "give the path of an executable file")
}

// A server that refuses the doctor's probe quoting the -H credential back
// (403 invalid credentials: Bearer …) has it redacted in the report, text
// and JSON: the -H credentials are the run's secrets before the first
// request, and a body is redacted before it is cut and quoted, so that no
// part of the token shows, nor a form of it quoting made (a token with
// a quote or a backslash).
func TestDoctorRedactsAQuotedCredential(t *testing.T) {
	long := `sk-live-` + strings.Repeat("0123456789", 14) + `"\end` // cut at 120, escaped by %q
	for _, tc := range []struct {
		name, header, token string
	}{
		{"bearer", "Authorization: Bearer " + long, long},
		{"auth token", "X-Auth-Token: " + long, long},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "invalid credentials: "+r.Header.Get("Authorization")+r.Header.Get("X-Auth-Token"), http.StatusForbidden)
			}))
			defer srv.Close()
			for _, format := range []string{"--json", "--no-stored-auth"} {
				code, stdout, stderr := run("doctor", format, "-H", tc.header, srv.URL)
				if code != exitConnection || !strings.Contains(stdout, "invalid credentials: ") {
					t.Errorf("%s: exit %d, stdout %q; want the refusal reported", format, code, stdout)
				}
				for _, leak := range []string{tc.token[:20], "0123456789012"} {
					if strings.Contains(stdout+stderr, leak) {
						t.Errorf("%s: the token shows (%q):\n%s%s", format, leak, stdout, stderr)
					}
				}
			}
		})
	}
}
