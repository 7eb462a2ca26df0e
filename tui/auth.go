package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient/oauth"
)

// What the inspector says of a URL server's authorization (OAuth): the
// header's few words, and the Info tab's section, from the connection's
// account of it (Conn.AuthState). The login itself is in login.go.

// authBrief is the header's word on authorization, in at most width
// cells, or "" where there is no OAuth.
func (m *Model) authBrief(width int) string {
	s := m.c.styles
	if m.login != nil {
		text := "authorizing…"
		if _, shown := find[*loginCard](m); !shown {
			text += " (" + m.c.keys.tabs.authorize.Help().Key + " shows it)"
		}
		return s.warn.Render(fit(text, width))
	}
	if m.conn == nil {
		return ""
	}
	return authWords(&m.c, m.conn.AuthState(), width)
}

// authWords is what the header says of st in at most width cells: nothing
// when there is no OAuth, or when the server never asked for it (it named
// no authorization server and no sign-in failed), for then there is
// nothing to sign in to.
func authWords(c *common, st *oauth.State, width int) string {
	s := c.styles
	switch {
	case st == nil, !st.SignedIn && st.Err == "" && st.MetadataURL == "" && st.Issuer == "":
		return ""
	case !st.SignedIn && st.Err != "":
		return s.err.Render(fit("sign-in failed", width))
	case !st.SignedIn:
		return s.dim.Render(fit("not signed in", width))
	}
	expiry := expiresIn(st.Expiry, time.Now())
	for _, text := range []string{
		"signed in · " + line(strings.Join(st.Scopes, " "), 24) + " · " + expiry,
		"signed in · " + expiry,
	} {
		if len(st.Scopes) == 0 && strings.Count(text, " · ") == 2 {
			continue
		}
		if lipgloss.Width(text) <= width {
			return s.ok.Render(text)
		}
	}
	return s.ok.Render(fit("signed in", width))
}

// expiresIn says when a token expires, in a few words.
func expiresIn(t, now time.Time) string {
	d := t.Sub(now)
	switch {
	case t.IsZero():
		return "no expiry"
	case d <= 0:
		return "token expired"
	case d < time.Minute:
		return "expires in <1m"
	case d < time.Hour:
		return fmt.Sprintf("expires in %dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("expires in %dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
	return fmt.Sprintf("expires in %dd", int(d/(24*time.Hour)))
}

// authText is the Info tab's Auth section: what happened in
// authorization, as the connection tells it, and the key that signs in
// afresh. A value too long for its row goes under its label, so that a URL
// stays whole on one line where it can.
func authText(c *common, st *oauth.State, now time.Time) string {
	s := c.styles
	var b strings.Builder
	k := c.keys.tabs.authorize.Help().Key
	fmt.Fprintf(&b, "%s %s", s.title.Render("authorization (OAuth)"), s.dim.Render("("+k+" forgets the tokens and signs in afresh)"))
	switch {
	case st.SignedIn && st.FromStore:
		b.WriteString("\n  " + s.ok.Render("signed in") + ": a token stored by an earlier login")
	case st.SignedIn:
		b.WriteString("\n  " + s.ok.Render("signed in") + ": a login in this session")
	case st.Err != "":
		b.WriteString("\n  " + s.err.Render("not signed in") + ": the sign-in failed")
	default:
		b.WriteString("\n  " + s.dim.Render("not signed in: the server has not asked for it"))
	}
	row := func(label, value string) { // value: clean already
		if value == "" {
			value = s.dim.Render("—")
		}
		const col = 24
		head := "  " + label + strings.Repeat(" ", max(col-2-len(label), 1))
		if col+lipgloss.Width(value) > c.width && lipgloss.Width(value)+4 <= c.width {
			b.WriteString("\n" + head + "\n    " + value)
			return
		}
		b.WriteString("\n" + head + value)
	}
	row("resource", clean(st.Resource))
	row("resource metadata", clean(st.MetadataURL))
	row("authorization server", clean(st.Issuer))
	row("registration", clean(st.Registration))
	row("client id", clean(st.ClientID))
	row("scopes granted", clean(strings.Join(st.Scopes, " ")))
	switch {
	case !st.SignedIn:
		row("token", "")
	case st.Expiry.IsZero():
		row("token", "does not expire, as far as the server said")
	default:
		row("token", expiresIn(st.Expiry, now)+" (at "+st.Expiry.Local().Format("15:04:05")+")")
	}
	refresh := s.dim.Render("none yet")
	if !st.LastRefresh.IsZero() {
		refresh = st.LastRefresh.Local().Format("15:04:05")
	}
	row("last refresh", refresh)
	if st.Err != "" {
		row("last error", s.err.Render(clean(st.Err)))
	} else {
		row("last error", s.dim.Render("none"))
	}
	return b.String()
}
