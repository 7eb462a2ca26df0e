package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/internal/oauthtest"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/mcpclient/oauth"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// protected is an OAuth-protected MCP server with its authorization
// server, reached by the inspector as the command line reaches a URL
// server: its logins go through the inspector's asker.
type protected struct {
	t       *testing.T
	as      *oauthtest.Server
	store   *oauth.Store
	urls    chan string // each authorization URL the authorizer showed
	forgets atomic.Int32
}

func newProtected(t *testing.T) *protected {
	t.Helper()
	as := oauthtest.New()
	t.Cleanup(as.Close)
	return &protected{t: t, as: as, store: oauth.OpenStore(filepath.Join(t.TempDir(), "mcpeek", "auth.json")), urls: make(chan string, 8)}
}

// options are the inspector's for the server, re-authorizing included.
func (p *protected) options() Options {
	return Options{
		Target:  p.as.URL,
		Connect: p.connect,
		ForgetAuth: func() error {
			p.forgets.Add(1)
			_, err := p.store.Remove(p.as.URL)
			return err
		},
	}
}

func (p *protected) connect(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
	prompt, ok := asker.(mcpclient.AuthPrompter)
	if !ok {
		return nil, fmt.Errorf("the inspector's asker %T cannot show a login", asker)
	}
	wire := mcpclient.NewWireLog(0, nil)
	a, err := oauth.New(oauth.Options{
		Resource: p.as.URL, Store: p.store, Secret: wire.Secret,
		Logf: func(format string, args ...any) { wire.Note(fmt.Sprintf(format, args...)) },
		Show: func(text string) {
			if u, ok := strings.CutPrefix(text, layer.AuthOpenPrefix); ok {
				p.urls <- u
			}
			prompt.ShowAuth(text)
		},
		Paste: prompt.PasteAuth,
	})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{
		Target: mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: p.as.URL},
		Auth:   a, Wire: wire, Asker: asker, Records: mcpclient.NewRecorder(nil),
	})
	if err != nil {
		a.Close()
	}
	return conn, err
}

// nextURL is the authorization URL the authorizer showed next.
func (p *protected) nextURL() string {
	p.t.Helper()
	select {
	case u := <-p.urls:
		return u
	case <-time.After(10 * time.Second):
		p.t.Fatal("no authorization URL was shown")
	}
	return ""
}

// browse plays the person's browser on the URL: it approves, and returns
// the address the browser ends on (mcpeek's callback), without going there.
func (p *protected) browse(authURL string) string {
	p.t.Helper()
	loc, err := oauthtest.Browser(context.Background(), authURL)
	if err != nil {
		p.t.Fatal(err)
	}
	return loc
}

// paste pastes text as a terminal does (bracketed), then presses enter.
func (in *inspector) paste(text string) *inspector {
	in.tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text), Paste: true})
	return in.keys("enter")
}

// The login card shows the authorization URL whole; the address the
// browser ended on, pasted into it, completes the login, and the server's
// tools show, with the header saying who is signed in.
func TestLoginInTheInspector(t *testing.T) {
	t.Parallel()
	p := newProtected(t)
	in := open(t, p.options(), 100, 30)
	u := p.nextURL()
	in.expectAll(append([]string{"Sign in to " + p.as.URL, "then, if your browser cannot reach", "address: "},
		strings.Split(wrapWhole(u, 100), "\n")...)...)
	in.paste(p.browse(u)).expectAll("whoami", "signed in · ", "offline_access", " · expires in 59m")
	if n := len(p.as.AccessTokens()); n != 1 {
		t.Errorf("%d tokens issued, want 1", n)
	}
	if view := in.screen(); strings.Contains(view, "Sign in to") {
		t.Errorf("the card outlived the login:\n%s", view)
	}
}

// An address that is not the redirect is refused, and says why in the
// card; the login goes on waiting, and the right address completes it.
func TestWrongPasteKeepsTheLoginWaiting(t *testing.T) {
	t.Parallel()
	p := newProtected(t)
	in := open(t, p.options(), 100, 30)
	u := p.nextURL()
	in.expect("address: ").paste("http://127.0.0.1:1/callback?code=nothing")
	in.expectAll("refused: ", "it has no state")
	in.paste(p.browse(u)).expectAll("whoami", "signed in")
	in.screen()
	if st := in.m.conn.AuthState(); st == nil || !st.SignedIn || st.Registration != "dynamic client registration" {
		t.Errorf("auth state %+v, want signed in after dynamic registration", st)
	}
}

// Esc hides the card while the login waits, and the header says so; a
// shows it again.
func TestHiddenLoginWaits(t *testing.T) {
	t.Parallel()
	k := keys.NewMap()
	p := newProtected(t)
	in := open(t, p.options(), 100, 30)
	u := p.nextURL()
	in.expect("address: ").press(layer.LoginKeys.Hide).expect("authorizing… (a shows it)")
	in.press(k.Tabs.Authorize).expect("address: ")
	in.paste(p.browse(u)).expect("whoami")
}

// The Info tab narrates the login: where the metadata came from, the
// authorization server, the registration, the scopes and the token.
func TestInfoNarratesTheLogin(t *testing.T) {
	t.Parallel()
	p := newProtected(t)
	in := open(t, p.options(), 120, 40)
	in.expect("address: ").paste(p.browse(p.nextURL())).expect("whoami").keys("6")
	in.expectAll("authorization (OAuth)", "a forgets the tokens and signs in afresh", "signed in: a login in this session",
		"resource metadata", p.as.Issuer+"/.well-known/oauth-protected-resource/mcp",
		"authorization server  "+p.as.Issuer, "dynamic client registration", "scopes granted        ",
		"expires in 59m", "last refresh          none yet", "last error            none")
}

// a forgets the stored tokens and reconnects, and the login runs again:
// a second token is issued.
func TestReauthorize(t *testing.T) {
	t.Parallel()
	k := keys.NewMap()
	p := newProtected(t)
	in := open(t, p.options(), 100, 30)
	in.expect("address: ").paste(p.browse(p.nextURL())).expect("whoami")
	in.press(k.Tabs.Authorize)
	u := p.nextURL()
	in.expect("address: ").paste(p.browse(u)).expect("signed in")
	in.screen()
	if n := len(p.as.AccessTokens()); n != 2 || p.forgets.Load() != 1 {
		t.Errorf("%d tokens issued, tokens forgotten %d times; want 2 and once", n, p.forgets.Load())
	}
	if entries, err := p.store.Find(p.as.URL); err != nil || len(entries) != 1 {
		t.Errorf("stored: %v, %v; want the new token alone", entries, err)
	}
}

// Without OAuth, a says there is nothing to sign in to.
func TestReauthorizeWithoutOAuth(t *testing.T) {
	t.Parallel()
	m := New(Options{})
	m.state = stateConnected
	m.Update(keyMsg("a"))
	if !m.status.err || !strings.Contains(m.status.text, "only URL servers") {
		t.Errorf("status %+v", m.status)
	}
}

var (
	loopback     = regexp.MustCompile(`(127\.0\.0\.1(?::|%3A))(\d+)`)
	randomParams = regexp.MustCompile(`((?:state|code_challenge)=)([^&\s]+)`)
	clientIDs    = regexp.MustCompile(`(client-)([A-Z2-7]{8})`)
	expiries     = regexp.MustCompile(`expires in [0-9hm<]+`)
)

// maskAuth masks what differs between runs (ports, client ids, state,
// challenges, the order of the scopes) with as many characters, so that
// what wraps wraps alike.
func maskAuth(s string) string {
	for _, re := range []*regexp.Regexp{loopback, randomParams, clientIDs} {
		s = re.ReplaceAllStringFunc(s, func(x string) string {
			sub := re.FindStringSubmatch(x)
			return sub[1] + strings.Repeat("X", len(sub[2]))
		})
	}
	// The authorization server grants the scopes asked for, in an order
	// that varies.
	s = strings.NewReplacer("offline_access read", "read offline_access", "offline_access+read", "read+offline_access").Replace(s)
	return expiries.ReplaceAllString(s, "expires in N")
}

// maskWrappedURL masks the authorization URL the card shows wrapped
// whole: the URL is read back from its lines, masked, and wrapped again,
// so that masking a value cut by a line break cannot miss its rest.
func maskWrappedURL(t *testing.T, view string, width int) string {
	t.Helper()
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "open this URL to authorize") {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) != "" {
			j++
		}
		var u strings.Builder
		for _, part := range lines[i+1 : j] {
			u.WriteString(strings.TrimRight(part, " "))
		}
		wrapped := strings.Split(wrapWhole(maskAuth(u.String()), width), "\n")
		return strings.Join(append(append(lines[:i+1:i+1], wrapped...), lines[j:]...), "\n")
	}
	t.Fatalf("the card shows no authorization URL:\n%s", view)
	return ""
}

// The login card after a refused paste, and the Info tab after a login,
// at each size.
func TestLoginGoldens(t *testing.T) {
	t.Parallel()
	for _, size := range sizes {
		t.Run("card/"+size.name, func(t *testing.T) {
			t.Parallel()
			p := newProtected(t)
			in := open(t, p.options(), size.w, size.h)
			p.nextURL()
			in.expect("address: ").paste("https://example.com/?code=nothing").expect("refused: that is not")
			// The view is read unmasked (in.screen stops the program): mask
			// would take a "…1s" the URL wraps after for a duration.
			in.screen()
			checkGolden(t, mask(maskAuth(maskWrappedURL(t, in.m.View(), size.w))))
		})
		t.Run("info/"+size.name, func(t *testing.T) {
			t.Parallel()
			p := newProtected(t)
			in := open(t, p.options(), size.w, size.h)
			in.expect("address: ").paste(p.browse(p.nextURL())).expect("whoami").keys("6").expect("scopes granted")
			checkGolden(t, maskAuth(in.screen()))
		})
	}
}

// The card takes the authorization URL from whichever line gives it (the
// browser may have been opened on it), answers the authorizer's wait with
// the address typed, shows why it was refused, and closes when the
// authorizer stops waiting, not when an earlier login's wait ends; a line
// that starts a login anew replaces the one shown.
func TestLoginSteps(t *testing.T) {
	t.Parallel()
	m := New(Options{Target: "https://mcp.example.com/mcp"})
	m.asker.stop()
	step := func(msgs ...tea.Msg) tea.Cmd { _, cmd := m.Update(authMsgs{msgs}); return cmd }
	step(authShownMsg{"authorizing in your browser; waiting for it to come back to http://127.0.0.1:1/callback"},
		authShownMsg{"if it did not open, open this URL: https://as.example.com/authorize?state=s1"})
	if l, ok := findTop[*layer.LoginCard](m); !ok || l.URL() != "https://as.example.com/authorize?state=s1" || strings.Count(m.View(), "authorizing in your browser") != 1 {
		t.Fatalf("top %T, view:\n%s", m.top().layer(), m.View())
	}
	p := &layer.PasteWait{Reply: make(chan string, 1)}
	step(authPasteMsg{p})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("http://127.0.0.1:1/callback?x=1"), Paste: true})
	_, cmd := m.Update(keyMsg("enter"))
	run(cmd)
	if got := <-p.Reply; got != "http://127.0.0.1:1/callback?x=1" || !strings.Contains(m.View(), "checking the address…") {
		t.Fatalf("the authorizer got %q, view:\n%s", got, m.View())
	}
	step(authShownMsg{"that is not the address (it has no state)"})
	if v := m.View(); strings.Contains(v, "checking the address…") || !strings.Contains(v, "refused: that is not the address") {
		t.Errorf("the refusal is not shown:\n%s", v)
	}
	next := &layer.PasteWait{Reply: make(chan string, 1)}
	step(authPasteMsg{next}, authPasteEndedMsg{&layer.PasteWait{}}) // the end of an earlier login's wait comes late
	if m.login == nil {
		t.Fatal("the end of an earlier login's wait ended this one")
	}
	step(authPasteEndedMsg{next})
	if _, ok := findLayer[*layer.LoginCard](&m.stack); ok || m.login != nil {
		t.Errorf("the card outlived the login: %+v", m.login)
	}
	step(authShownMsg{layer.AuthOpenPrefix + "https://as.example.com/authorize?state=s2"})
	step(authShownMsg{layer.AuthOpenPrefix + "https://as.example.com/authorize?state=s3"})
	if m.login == nil || m.login.URL() != "https://as.example.com/authorize?state=s3" || len(m.layers) != 1 {
		t.Errorf("login %+v, layers %v: want the newest login alone", m.login, m.layers)
	}
}

// An address sent while the authorizer is not waiting goes to its next
// wait.
func TestLoginHoldsAnEarlyAddress(t *testing.T) {
	t.Parallel()
	m := New(Options{})
	m.asker.stop()
	m.Update(authMsgs{[]tea.Msg{authShownMsg{layer.AuthOpenPrefix + "https://as.example.com/authorize"}}})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("http://127.0.0.1:1/callback?state=s"), Paste: true})
	m.Update(keyMsg("enter"))
	p := &layer.PasteWait{Reply: make(chan string, 1)}
	_, cmd := m.Update(authMsgs{[]tea.Msg{authPasteMsg{p}}})
	run(cmd)
	select {
	case got := <-p.Reply:
		if got != "http://127.0.0.1:1/callback?state=s" {
			t.Errorf("the authorizer got %q", got)
		}
	default:
		t.Error("the address held was not sent")
	}
}

// run runs a command and those it batches, for a model driven without a
// program whose asker is stopped (so that its waits return at once).
func run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if batch, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range batch {
			run(c)
		}
	}
}

// A call that needs more scopes (step-up) logs in again while connected:
// the card shows over the tabs, and once the address is pasted the call
// ends with the new grant.
func TestStepUpLoginDuringACall(t *testing.T) {
	t.Parallel()
	p := newProtected(t)
	in := open(t, p.options(), 100, 30)
	in.expect("address: ").paste(p.browse(p.nextURL())).expect("whoami")
	in.selectTool("admin").keys("enter")
	u := p.nextURL()
	if !strings.Contains(u, "admin") {
		t.Errorf("the step-up asks for %s, without admin", u)
	}
	in.expect("address: ").paste(p.browse(u)).expectAll("admin ok", "admin")
	in.screen()
	if _, ok := findLayer[*layer.LoginCard](&in.m.stack); ok || in.m.login != nil {
		t.Error("the card outlived the step-up")
	}
	if st := in.m.conn.AuthState(); st == nil || !slices.Contains(st.Scopes, "admin") {
		t.Errorf("auth state %+v, want the admin scope granted", st)
	}
}
