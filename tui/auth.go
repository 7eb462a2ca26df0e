package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient/oauth"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// What the inspector says of a URL server's authorization (OAuth): the
// header's few words, and the Info tab's section, from the connection's
// account of it (Conn.AuthState). The login itself is in login.go.

// authBrief is the header's word on authorization, in at most width
// cells, or "" where there is no OAuth; loginShown: the login card is on
// the stack, not hidden.
func (l *link) authBrief(c *widget.Common, width int, loginShown bool) string {
	s := c.Styles
	if l.login != nil {
		text := "authorizing…"
		if !loginShown {
			text += " (" + c.Keys.Tabs.Authorize.Help().Key + " shows it)"
		}
		return s.Warn.Render(widget.Fit(text, width))
	}
	if l.conn == nil {
		return ""
	}
	return authWords(c, l.conn.AuthState(), width)
}

// authWords is what the header says of st in at most width cells: nothing
// when there is no OAuth, or when the server never asked for it (it named
// no authorization server and no sign-in failed), for then there is
// nothing to sign in to.
func authWords(c *widget.Common, st *oauth.State, width int) string {
	s := c.Styles
	switch {
	case st == nil, !st.SignedIn && st.Err == "" && st.MetadataURL == "" && st.Issuer == "":
		return ""
	case !st.SignedIn && st.Err != "":
		return s.Err.Render(widget.Fit("sign-in failed", width))
	case !st.SignedIn:
		return s.Dim.Render(widget.Fit("not signed in", width))
	}
	expiry := expiresIn(st.Expiry, time.Now())
	for _, text := range []string{
		"signed in · " + widget.Line(strings.Join(st.Scopes, " "), 24) + " · " + expiry,
		"signed in · " + expiry,
	} {
		if len(st.Scopes) == 0 && strings.Count(text, " · ") == 2 {
			continue
		}
		if lipgloss.Width(text) <= width {
			return s.OK.Render(text)
		}
	}
	return s.OK.Render(widget.Fit("signed in", width))
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
func authText(c *widget.Common, st *oauth.State, now time.Time) string {
	s := c.Styles
	var b strings.Builder
	k := c.Keys.Tabs.Authorize.Help().Key
	fmt.Fprintf(&b, "%s %s", s.Title.Render("authorization (OAuth)"), s.Dim.Render("("+k+" forgets the tokens and signs in afresh)"))
	switch {
	case st.SignedIn && st.FromStore:
		b.WriteString("\n  " + s.OK.Render("signed in") + ": a token stored by an earlier login")
	case st.SignedIn:
		b.WriteString("\n  " + s.OK.Render("signed in") + ": a login in this session")
	case st.Err != "":
		b.WriteString("\n  " + s.Err.Render("not signed in") + ": the sign-in failed")
	default:
		b.WriteString("\n  " + s.Dim.Render("not signed in: the server has not asked for it"))
	}
	row := func(label, value string) { // value: clean already
		if value == "" {
			value = s.Dim.Render("—")
		}
		const col = 24
		head := "  " + label + strings.Repeat(" ", max(col-2-len(label), 1))
		if col+lipgloss.Width(value) > c.Width && lipgloss.Width(value)+4 <= c.Width {
			b.WriteString("\n" + head + "\n    " + value)
			return
		}
		b.WriteString("\n" + head + value)
	}
	row("resource", widget.Clean(st.Resource))
	row("resource metadata", widget.Clean(st.MetadataURL))
	row("authorization server", widget.Clean(st.Issuer))
	row("registration", widget.Clean(st.Registration))
	row("client id", widget.Clean(st.ClientID))
	row("scopes granted", widget.Clean(strings.Join(st.Scopes, " ")))
	switch {
	case !st.SignedIn:
		row("token", "")
	case st.Expiry.IsZero():
		row("token", "does not expire, as far as the server said")
	default:
		row("token", expiresIn(st.Expiry, now)+" (at "+st.Expiry.Local().Format("15:04:05")+")")
	}
	refresh := s.Dim.Render("none yet")
	if !st.LastRefresh.IsZero() {
		refresh = st.LastRefresh.Local().Format("15:04:05")
	}
	row("last refresh", refresh)
	if st.Err != "" {
		row("last error", s.Err.Render(widget.Clean(st.Err)))
	} else {
		row("last error", s.Dim.Render("none"))
	}
	return b.String()
}
