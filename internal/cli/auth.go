package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/mcpclient/oauth"
)

// authFlags are the flags of OAuth authorization, on every command that
// connects.
type authFlags struct {
	clientID          string
	clientSecret      string
	clientMetadataURL string
	scope             string
	callbackAddr      string
	noStoredAuth      bool
	storedAuthOnly    bool
	// forceLogin logs in afresh even with a stored token (auth login).
	forceLogin bool
	// allowHosts are --auth-allow-host's; allow is what they and
	// $MCPEEK_AUTH_ALLOW_HOSTS allow, once checked.
	allowHosts listFlag
	allow      oauth.AllowList
}

func (af *authFlags) register(fs *flagSet) {
	fs.StringVar(&af.clientID, "client-id", "", "OAuth: use this pre-registered client `ID` (URL servers)")
	fs.StringVar(&af.clientSecret, "client-secret", "", "OAuth: the pre-registered client's `SECRET` (visible to other processes: prefer $MCPEEK_CLIENT_SECRET)")
	fs.StringVar(&af.clientMetadataURL, "client-metadata-url", "", "OAuth: identify mcpeek by this client ID metadata document `URL` (https)")
	fs.StringVar(&af.scope, "scope", "", "OAuth: ask for these `SCOPES` (space-separated) instead of the server's")
	fs.StringVar(&af.callbackAddr, "auth-callback-addr", "", "OAuth: listen for the browser's redirect on this loopback `ADDR` (default: a free port on 127.0.0.1)")
	fs.BoolVar(&af.noStoredAuth, "no-stored-auth", false, "OAuth: neither use nor keep stored tokens")
	fs.BoolVar(&af.storedAuthOnly, "stored-auth-only", false, "OAuth: never open a browser; fail (exit 3) without a usable stored token")
	fs.Var(&af.allowHosts, "auth-allow-host", "OAuth: let authorization requests reach this `HOST` (a name, an IP or a CIDR prefix such as 10.0.0.0/8) though it is private and the server is not (repeatable; added to $"+oauth.AllowHostsEnv+")")
}

// check checks the flags; secret comes from $MCPEEK_CLIENT_SECRET when the
// flag is not given.
func (af *authFlags) check() error {
	if af.clientSecret == "" {
		af.clientSecret = os.Getenv("MCPEEK_CLIENT_SECRET")
	}
	if af.clientSecret != "" && af.clientID == "" {
		return usagef("--client-secret needs --client-id")
	}
	if af.noStoredAuth && af.storedAuthOnly {
		return usagef("--no-stored-auth and --stored-auth-only contradict each other")
	}
	if af.clientMetadataURL != "" && !strings.HasPrefix(af.clientMetadataURL, "https://") {
		return usagef("--client-metadata-url must be an https:// URL")
	}
	allow, err := oauth.ParseAllowList(append([]string{os.Getenv(oauth.AllowHostsEnv)}, af.allowHosts...)...)
	if err != nil {
		return usagef("--auth-allow-host or $%s: %v", oauth.AllowHostsEnv, err)
	}
	af.allow = allow
	return nil
}

// store is the token store the flags allow (nil: none).
func (af *authFlags) store() (*oauth.Store, error) {
	if af.noStoredAuth {
		return nil, nil
	}
	path, err := oauth.DefaultStorePath()
	if err != nil {
		return nil, err
	}
	return oauth.OpenStore(path), nil
}

// authorizer prepares OAuth for a connection to an HTTP server, within
// ctx: show tells the person what to do, paste (nil: none) reads a pasted
// redirect URL.
func (cf *connFlags) authorizer(ctx context.Context, wire *mcpclient.WireLog, show func(string), paste func(context.Context) (string, error)) (*oauth.Authorizer, error) {
	store, err := cf.auth.store()
	if err != nil {
		return nil, err
	}
	opts := oauth.Options{
		Context:           ctx, // the run's --timeout bounds a stored token's refresh
		Resource:          cf.target.URL,
		ClientMetadataURL: cf.auth.clientMetadataURL,
		ClientID:          cf.auth.clientID,
		ClientSecret:      cf.auth.clientSecret,
		Scopes:            strings.Fields(strings.ReplaceAll(cf.auth.scope, ",", " ")),
		CallbackAddr:      cf.auth.callbackAddr,
		AllowHosts:        cf.auth.allow,
		Store:             store,
		StoredOnly:        cf.auth.storedAuthOnly,
		Fresh:             cf.auth.forceLogin,
		Show:              show,
		Paste:             paste,
		Logf:              func(format string, args ...any) { wire.Note(fmt.Sprintf(format, args...)) },
		Secret:            wire.Secret,
		HTTPClient:        mcpclient.HTTPClient(cf.tls.config),
	}
	if !cf.auth.storedAuthOnly {
		launch := apphost.SystemBrowser(cf.noBrowser)
		if cf.openWith != "" {
			launch = apphost.OpenWith(cf.openWith)
		}
		// The opener is another process, whose arguments other local
		// users can read: it gets a private launch page, never the
		// authorization URL, whose state would let them end the login.
		opts.Open = func(url string) (func(), error) { return apphost.OpenPrivately(launch, url) }
	}
	return oauth.New(opts)
}

// stdinLines reads the lines typed on stdin, for a pasted redirect URL:
// one reader for the whole run, whatever asks.
var stdinLines = sync.OnceValue(func() chan string {
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return lines
})

// pasteFromStdin reads a pasted line, until ctx ends.
func pasteFromStdin(ctx context.Context) (string, error) {
	select {
	case line, ok := <-stdinLines():
		if !ok {
			return "", io.EOF
		}
		return line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
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
		if o.conn.auth.storedAuthOnly || o.conn.auth.noStoredAuth {
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
		return o.conn.auth.check()
	}
	if err := o.conn.parseTarget(rest); err != nil {
		return err
	}
	if o.conn.target.Kind != mcpclient.TargetHTTP {
		return usagef("auth: %s is not an http:// or https:// URL; only URL servers authorize", o.conn.target)
	}
	return nil
}

func (o *authOptions) run(ctx context.Context, s streams) error {
	if err := o.conn.approve(ctx, s.errOut); err != nil { // its URL is a project's
		return err
	}
	store, err := o.conn.auth.store()
	if err != nil {
		return err
	}
	switch o.action {
	case "logout":
		n, err := store.Remove(o.conn.target.URL)
		if err != nil {
			return err
		}
		fmt.Fprintf(s.out, "forgot %d stored token(s)\n", n)
		return nil
	case "status":
		return o.status(s.out, store)
	}
	// login: a fresh login, stored; the connection proves it works.
	o.conn.auth.forceLogin = true
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
	if o.conn.target.URL != "" {
		entries, err = store.Find(o.conn.target.URL) // as the authorizer matches them
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

func untilText(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	d := time.Until(t).Round(time.Second)
	if d <= 0 {
		return "expired"
	}
	return "in " + d.String()
}
