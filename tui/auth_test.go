package tui

import (
	"strings"
	"testing"
	"time"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpeek/mcpeek/mcpclient/oauth"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// hostile is what a hostile authorization server puts in its strings: a
// clipboard write, a title change, a C1 control sequence.
const hostile = "\x1b]52;c;cHduZWQ=\x07\x1b]0;pwned\x07\u009b2J"

// wantNoControls fails when s holds a control character a terminal could
// obey.
func wantNoControls(t *testing.T, what, s string) {
	t.Helper()
	for _, c := range s {
		if c != '\n' && c != '\t' && (unicode.IsControl(c) || c == 0x7f) {
			t.Errorf("%s holds %U: %q", what, c, s)
			return
		}
	}
}

// The Info tab's authorization section and the login card show what an
// authorization server chose (issuer, client id, scopes, its error, the
// authorization URL) cleaned.
func TestAuthStringsShownCleaned(t *testing.T) {
	t.Parallel()
	c := widget.NewCommon(keys.NewMap(titles(testPages())...))
	st := &oauth.State{Resource: "https://mcp.example/mcp", MetadataURL: "https://mcp.example/.well-known/x" + hostile,
		Issuer: "https://as.example/" + hostile, Registration: "dynamic client registration", ClientID: "client" + hostile,
		Scopes: []string{"read", hostile}, SignedIn: true, Expiry: time.Now().Add(time.Hour), Err: "refused: " + hostile}
	text := authText(&c, st, time.Now())
	wantNoControls(t, "the Info tab's authorization section", text)
	if !strings.Contains(text, "client␛]52;c;") {
		t.Errorf("the client id is not shown: %q", text)
	}

	m := New(Options{Target: "https://mcp.example/mcp"})
	m.asker.stop()
	m.Update(authMsgs{[]tea.Msg{authShownMsg{"waiting for it to come back " + hostile},
		authShownMsg{layer.AuthOpenPrefix + "https://as.example/authorize" + hostile + "?state=s1"}}})
	if _, ok := findLayer[*layer.LoginCard](&m.stack); !ok {
		t.Fatal("no login card")
	}
	wantNoControls(t, "the login card", m.View())
}

// The header says nothing of sign-in to a server that never asked for
// authorization, and says "not signed in" once one did.
func TestHeaderSaysNothingOfSignInUnasked(t *testing.T) {
	t.Parallel()
	c := widget.NewCommon(keys.NewMap(titles(testPages())...))
	for _, tc := range []struct {
		name string
		st   *oauth.State
		want string
	}{
		{"no OAuth", nil, ""},
		{"a URL server that never asked", &oauth.State{Resource: "https://mcp.example/mcp"}, ""},
		{"asked, not signed in", &oauth.State{Resource: "https://mcp.example/mcp", MetadataURL: "https://mcp.example/.well-known/oauth-protected-resource"}, "not signed in"},
		{"a failed sign-in", &oauth.State{Resource: "https://mcp.example/mcp", Err: "refused"}, "sign-in failed"},
		{"signed in", &oauth.State{SignedIn: true, Issuer: "https://as.example"}, "signed in · no expiry"},
	} {
		if got := authWords(&c, tc.st, 40); got != tc.want {
			t.Errorf("%s: the header says %q, want %q", tc.name, got, tc.want)
		}
	}
}
