package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/mcpclient/oauth"
)

// registerAuth defines the flags of OAuth authorization, on every command
// that connects.
func (cf *connFlags) registerAuth(fs *flagSet) {
	a := &cf.Auth
	fs.StringVar(&a.ClientID, "client-id", "", "OAuth: use this pre-registered client `ID` (URL servers)")
	fs.StringVar(&a.ClientSecret, "client-secret", "", "OAuth: the pre-registered client's `SECRET` (visible to other processes: prefer $MCPEEK_CLIENT_SECRET)")
	fs.StringVar(&a.ClientMetadataURL, "client-metadata-url", "", "OAuth: identify mcpeek by this client ID metadata document `URL` (https)")
	fs.StringVar(&a.Scope, "scope", "", "OAuth: ask for these `SCOPES` (space-separated) instead of the server's")
	fs.StringVar(&a.CallbackAddr, "auth-callback-addr", "", "OAuth: listen for the browser's redirect on this loopback `ADDR` (default: a free port on 127.0.0.1)")
	fs.BoolVar(&a.NoStored, "no-stored-auth", false, "OAuth: neither use nor keep stored tokens")
	fs.BoolVar(&a.StoredOnly, "stored-auth-only", false, "OAuth: never open a browser; fail (exit 3) without a usable stored token")
	fs.Var(&cf.allowHosts, "auth-allow-host", "OAuth: let authorization requests reach this `HOST` (a name, an IP or a CIDR prefix such as 10.0.0.0/8) though it is private and the server is not (repeatable; added to $"+oauth.AllowHostsEnv+")")
}

// checkAuth checks the OAuth flags; the client secret comes from
// $MCPEEK_CLIENT_SECRET when the flag is not given.
func (cf *connFlags) checkAuth() error {
	a := &cf.Auth
	if a.ClientSecret == "" {
		a.ClientSecret = os.Getenv("MCPEEK_CLIENT_SECRET")
	}
	if a.ClientSecret != "" && a.ClientID == "" {
		return usagef("--client-secret needs --client-id")
	}
	if a.NoStored && a.StoredOnly {
		return usagef("--no-stored-auth and --stored-auth-only contradict each other")
	}
	if a.ClientMetadataURL != "" && !strings.HasPrefix(a.ClientMetadataURL, "https://") {
		return usagef("--client-metadata-url must be an https:// URL")
	}
	allow, err := oauth.ParseAllowList(append([]string{os.Getenv(oauth.AllowHostsEnv)}, cf.allowHosts...)...)
	if err != nil {
		return usagef("--auth-allow-host or $%s: %v", oauth.AllowHostsEnv, err)
	}
	a.Allow = allow
	return nil
}

// authOptions are `mcpeek auth`'s: login, logout or status.
type authOptions struct {
	conn   connFlags
	action string
	all    bool
}

func newAuthOptions(fs *flagSet) options {
	o := &authOptions{}
	o.conn.register(fs, true)
	fs.BoolVar(&o.all, "all", false, "logout: forget every stored token")
	return o
}

func (o *authOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("auth: say login, logout or status")
	}
	o.action = rest[0]
	if rest, err = fs.parse(rest[1:]); err != nil {
		return err
	}
	switch o.action {
	case "login":
		if len(rest) == 0 {
			return usagef("auth login: name the server's URL")
		}
		if o.conn.Auth.StoredOnly || o.conn.Auth.NoStored {
			return usagef("auth login stores a new token: it does not combine with --stored-auth-only or --no-stored-auth")
		}
	case "logout":
		if len(rest) == 0 && !o.all {
			return usagef("auth logout: name the server's URL, or give --all")
		}
	case "status":
	default:
		return usagef("auth: unknown action %q (want login, logout or status)", o.action)
	}
	if len(rest) == 0 {
		return o.conn.checkAuth()
	}
	if err := o.conn.parseTarget(rest); err != nil {
		return err
	}
	if o.conn.Target.Kind != mcpclient.TargetHTTP {
		return usagef("auth: %s is not an http:// or https:// URL; only URL servers authorize", o.conn.Target)
	}
	return nil
}

func (o *authOptions) run(ctx context.Context, s streams) error {
	if err := o.conn.approve(ctx, s.errOut, s.terminal()); err != nil { // its URL is a project's
		return err
	}
	store, err := o.conn.Auth.Store()
	if err != nil {
		return err
	}
	switch o.action {
	case "logout":
		n, err := store.Remove(o.conn.Target.URL)
		if err != nil {
			return err
		}
		fmt.Fprintf(s.out, "forgot %d stored token(s)\n", n)
		return nil
	case "status":
		return o.status(s.out, store)
	}
	// login: a fresh login, stored; the connection proves it works.
	o.conn.Auth.ForceLogin = true
	return o.conn.headless(ctx, s, &mcpclient.HeadlessAsker{Stderr: s.errOut}, nil, func(_ context.Context, conn *mcpclient.Conn) error {
		st := conn.AuthState()
		if st == nil || !st.SignedIn {
			fmt.Fprintf(s.out, "%s did not ask for authorization; nothing stored\n", textclean.OneLine(conn.Target().String()))
			return nil
		}
		if st.NotStored != "" {
			return fmt.Errorf("signed in to %s at %s, but the token was not stored: %s", conn.Target(), st.Issuer, st.NotStored)
		}
		fmt.Fprintf(s.out, "signed in to %s at %s (scopes %q, token expires %s); stored in %s\n",
			textclean.OneLine(conn.Target().String()), textclean.OneLine(st.Issuer), textclean.OneLine(strings.Join(st.Scopes, " ")), untilText(st.Expiry), store.Path())
		return nil
	})
}

func (o *authOptions) status(out io.Writer, store *oauth.Store) error {
	entries, err := store.Entries()
	if o.conn.Target.URL != "" {
		entries, err = store.Find(o.conn.Target.URL) // as the authorizer matches them
	}
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tAUTHORIZATION SERVER\tCLIENT\tSCOPES\tEXPIRES\tREFRESH")
	shown := 0
	for _, e := range entries {
		refresh := "no"
		if e.RefreshToken != "" {
			refresh = "yes"
		}
		// What the servers chose (the issuer, the client id, the scopes)
		// is cleaned: an escape sequence in auth.json is shown, not obeyed.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", cell(e.Resource), cell(e.Issuer), cell(e.ClientID),
			cell(strings.Join(e.Scopes, " ")), untilText(e.Expiry), refresh)
		shown++
	}
	if shown == 0 {
		fmt.Fprintf(out, "no stored tokens in %s\n", store.Path())
		return nil
	}
	return tw.Flush()
}

// cell is a stored string made safe for one cell of the status table:
// clean, on one line (no tab to shift the columns), at most maxCell runes.
func cell(s string) string { return textclean.Cut(textclean.OneLine(s), maxCell) }

// maxCell bounds a cell of `auth status`.
const maxCell = 200

func untilText(t time.Time) string { return textclean.Until(t) }
