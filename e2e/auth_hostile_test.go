package e2e

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/mcpeek/mcpeek/internal/oauthtest"
)

// authRunner runs the built mcpeek with a config folder (the token store's)
// of its own, and --open-with this binary as the browser, which notes each
// run in events.
type authRunner struct {
	t              *testing.T
	config, events string
}

func newAuthRunner(t *testing.T) *authRunner {
	return &authRunner{t: t, config: t.TempDir(), events: filepath.Join(t.TempDir(), "opened")}
}

func (a *authRunner) run(args ...string) result {
	a.t.Helper()
	opener := fmt.Sprintf("MCPEEK_TEST_SERVER=browser MCPEEK_TEST_EVENTS=%s %s", a.events, testBinary)
	// The flags go after the action (auth's first word), before the URL.
	full := append([]string{args[0], args[1], "--timeout", "30s", "--open-with", opener}, args[2:]...)
	cmd := exec.Command(mcpeekBin, full...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+a.config)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		a.t.Fatal(err)
	}
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// opened is each run of the browser: its arguments and the URL it was
// sent on to.
func (a *authRunner) opened() (argv, target []string) {
	b, _ := os.ReadFile(a.events)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if args, u, ok := strings.Cut(line, "\t"); ok {
			argv, target = append(argv, args), append(target, u)
		}
	}
	return argv, target
}

// wantClean fails when what a command printed holds a control character
// a terminal could obey (an escape sequence, a C1 control, a bell).
func wantClean(t *testing.T, what string, r result) {
	t.Helper()
	for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
		for _, c := range out {
			if c != '\n' && c != '\t' && (unicode.IsControl(c) || c == 0x7f) {
				t.Errorf("%s: %s holds %U: %q", what, name, c, out)
				break
			}
		}
	}
}

// A hostile authorization server puts escape sequences in every string it
// chooses (issuer, client id, scopes, token type, error description):
// login, status and logout print them shown, not obeyed, on success and
// on failure.
func TestAuthCommandsCleanAHostileServersStrings(t *testing.T) {
	t.Parallel()
	as := oauthtest.New()
	defer as.Close()
	as.MakeHostile()
	a := newAuthRunner(t)

	r := a.run("auth", "login", as.URL)
	wantClean(t, "auth login", r)
	if r.code != exitOK || !strings.Contains(r.stdout, "signed in to "+as.URL) {
		t.Fatalf("auth login: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	stored, _ := os.ReadFile(filepath.Join(a.config, "mcpeek", "auth.json"))
	if !strings.Contains(string(stored), `\u001b]52;c;`) {
		t.Fatalf("the store does not hold the server's escapes, so this test tests nothing:\n%s", stored)
	}
	for _, args := range [][]string{{"auth", "status"}, {"auth", "status", as.URL}} {
		r = a.run(args...)
		wantClean(t, strings.Join(args, " "), r)
		if r.code != exitOK || !strings.Contains(r.stdout, as.URL) || !strings.Contains(r.stdout, "␛]52;c;") {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
	r = a.run("auth", "logout", as.URL)
	wantClean(t, "auth logout", r)
	if r.code != exitOK || !strings.Contains(r.stdout, "forgot 1 stored token") {
		t.Errorf("auth logout: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}

	// Refused, with escapes in the error and its description: one clean
	// line, and the browser opened once.
	denied := oauthtest.New()
	defer denied.Close()
	denied.DenyAuthorize = true
	denied.MakeHostile() // after the switch: its lock orders both before the requests
	d := newAuthRunner(t)
	r = d.run("auth", "login", denied.URL)
	wantClean(t, "a refused auth login", r)
	if r.code != exitConnection || !strings.Contains(r.stderr, "the person said no") || strings.Contains(r.stdout, "signed in") {
		t.Errorf("a refused auth login: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	if argv, _ := d.opened(); len(argv) != 1 {
		t.Errorf("a refused login opened the browser %d times", len(argv))
	}
}

// The browser's process gets a private launch page, never the
// authorization URL: its arguments, which other local users can read,
// hold no state that would let them end the login or answer it. The
// person's own terminal gives the URL, for a browser that cannot read the
// page (Snap, Flatpak, WSL). The page is gone when the run ends.
func TestTheOpenersArgumentsHoldNoState(t *testing.T) {
	as := oauthtest.New()
	defer as.Close()
	a := newAuthRunner(t)
	r := a.run("auth", "login", as.URL)
	if r.code != exitOK {
		t.Fatalf("auth login: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	argv, targets := a.opened()
	if len(argv) != 1 {
		t.Fatalf("the browser ran %d times", len(argv))
	}
	u, err := url.Parse(targets[0])
	if err != nil || u.Query().Get("state") == "" {
		t.Fatalf("the browser was not sent to the authorization URL: %q", targets[0])
	}
	for _, secret := range []string{u.Query().Get("state"), u.Query().Get("code_challenge"), u.RawQuery, "state="} {
		if strings.Contains(argv[0], secret) {
			t.Errorf("the opener's arguments hold %q: %s", secret, argv[0])
		}
	}
	if !strings.Contains(r.stderr, "open this URL: "+targets[0]+"\n") {
		t.Errorf("the terminal does not give the authorization URL: %q", r.stderr)
	}
	page := strings.TrimPrefix(argv[0][strings.LastIndex(argv[0], " ")+1:], "file://")
	if _, err := os.Stat(page); err == nil {
		t.Errorf("the launch page %s is still there after the login", page)
	}
}

// A login whose token cannot be stored says so and fails, rather than
// saying it was stored.
func TestAuthLoginSaysWhenTheTokenWasNotStored(t *testing.T) {
	as := oauthtest.New()
	defer as.Close()
	a := newAuthRunner(t)
	// mcpeek's folder is a dangling link: the store reads as empty, and
	// cannot be written (even by root).
	if err := os.Symlink(filepath.Join(t.TempDir(), "gone", "mcpeek"), filepath.Join(a.config, "mcpeek")); err != nil {
		t.Fatal(err)
	}
	r := a.run("auth", "login", as.URL)
	if r.code == exitOK || strings.Contains(r.stdout, "stored in") || !strings.Contains(r.stderr, "the token was not stored") {
		t.Errorf("auth login: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
}
