// Package oauthtest is an OAuth-protected MCP server and its authorization
// server, in one process, for tests: discovery, dynamic registration,
// PKCE, the resource parameter, refresh and step-up, with switches for
// the ways an authorization server can misbehave.
package oauthtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Server is the protected MCP server (at URL, path /mcp) and its
// authorization server (Issuer).
type Server struct {
	URL    string // the MCP endpoint
	Issuer string

	// Switches, set before use.
	TokenTTL      time.Duration // access tokens live this long (default 1h)
	AdminScope    string        // the scope the "admin" tool needs (step-up); default "admin"
	BadIss        bool          // redirect with a wrong iss
	HTMLToken     bool          // the token endpoint answers HTML
	DenyAuthorize bool          // the authorization endpoint redirects with error=access_denied
	HTMLMetadata  bool          // every metadata document is an HTML page
	LoopMetadata  bool          // the authorization server's metadata redirects to itself
	// Hostile puts terminal escape sequences in every string the
	// authorization server chooses: the client id, the scopes granted,
	// the token type, the error description, and (as C1 controls, which a
	// URL may hold) the issuer. Set it with [Server.MakeHostile].
	Hostile bool

	srv *httptest.Server

	mu       sync.Mutex
	clients  map[string]string // client id → redirect URI
	codes    map[string]grant
	tokens   map[string]grant // access token → grant
	refresh  map[string]grant
	Log      []string // requests the authorization server served: "POST /token grant_type=…"
	Issued   int      // access tokens issued
	Refreshs int      // refresh grants served
}

type grant struct {
	client, challenge, resource string
	scopes                      []string
	expiry                      time.Time
}

// New starts the servers; Close stops them.
func New() *Server {
	s := &Server{TokenTTL: time.Hour, AdminScope: "admin", clients: map[string]string{}, codes: map[string]grant{},
		tokens: map[string]grant{}, refresh: map[string]grant{}}
	mux := http.NewServeMux()
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/mcp"
	s.Issuer = s.srv.URL
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		if s.HTMLMetadata {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html>not here</html>")
			return
		}
		auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
			Resource: s.URL, AuthorizationServers: []string{s.issuer()}, ScopesSupported: []string{"read"},
		}).ServeHTTP(w, r)
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", s.metadata)
	mux.HandleFunc("/.well-known/oauth-authorization-server/", s.metadata) // an issuer with a path
	mux.HandleFunc("/authorize", s.authorize)
	mux.HandleFunc("/token", s.token)
	mux.HandleFunc("/register", s.register)
	mcpServer := mcp.NewServer(&mcp.Implementation{Name: "protected", Version: "1"}, nil)
	mcp.AddTool(mcpServer, &mcp.Tool{Name: "whoami"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		info := req.Extra.TokenInfo
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "scopes: " + strings.Join(info.Scopes, " ")}}}, nil, nil
	})
	// echo_token is a careless server's error: it quotes the request's
	// Authorization header back.
	mcp.AddTool(mcpServer, &mcp.Tool{Name: "echo_token"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "refused: Authorization: " + req.Extra.Header.Get("Authorization")}}}, nil, nil
	})
	mcp.AddTool(mcpServer, &mcp.Tool{Name: "admin"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "admin ok"}}}, nil, nil
	})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcpServer }, &mcp.StreamableHTTPOptions{Stateless: true})
	protected := auth.RequireBearerToken(s.verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: s.srv.URL + "/.well-known/oauth-protected-resource/mcp"})(handler)
	mux.Handle("/mcp", s.stepUp(protected))
	return s
}

// Escapes are what a hostile authorization server puts in its strings:
// an OSC 52 clipboard write, a title change and a colour (ESC and BEL
// where JSON carries them, C1 controls in the issuer's URL).
const (
	Escapes   = "\x1b]52;c;cHduZWQ=\x07\x1b]0;pwned\x07\x1b[31m"
	C1Escapes = "\u009b2J\u009d0;pwned\u009c"
)

// MakeHostile makes the authorization server hostile (see Hostile); call
// it before use.
func (s *Server) MakeHostile() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Hostile = true
	s.Issuer = s.srv.URL + "/as" + C1Escapes
}

// issuer is the Issuer, which MakeHostile may have changed.
func (s *Server) issuer() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Issuer
}

// Close stops the servers.
func (s *Server) Close() { s.srv.Close() }

func (s *Server) logf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Log = append(s.Log, fmt.Sprintf(format, args...))
}

// AccessTokens are the access tokens issued so far.
func (s *Server) AccessTokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Collect(maps.Keys(s.tokens))
}

// Secrets are every access and refresh token issued so far: what a client
// must keep out of its logs.
func (s *Server) Secrets() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append(slices.Collect(maps.Keys(s.tokens)), slices.Collect(maps.Keys(s.refresh))...)
}

func (s *Server) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.tokens[token]
	if !ok || time.Now().After(g.expiry) {
		return nil, auth.ErrInvalidToken
	}
	if g.resource != s.URL {
		return nil, fmt.Errorf("%w: token for %q", auth.ErrInvalidToken, g.resource)
	}
	return &auth.TokenInfo{Scopes: g.scopes, Expiration: g.expiry}, nil
}

// stepUp answers a call of the admin tool without the admin scope with
// 403 insufficient_scope, naming the scopes needed.
func (s *Server) stepUp(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			if strings.Contains(string(body), `"name":"admin"`) {
				token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
				s.mu.Lock()
				g, ok := s.tokens[token]
				s.mu.Unlock()
				if ok && !slices.Contains(g.scopes, s.AdminScope) {
					w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="read %s", resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, s.AdminScope, s.srv.URL))
					http.Error(w, "insufficient scope", http.StatusForbidden)
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	switch {
	case s.HTMLMetadata:
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html>not here</html>")
		return
	case s.LoopMetadata:
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
		return
	}
	writeJSON(w, map[string]any{
		"issuer":                                         s.issuer(),
		"authorization_endpoint":                         s.srv.URL + "/authorize",
		"token_endpoint":                                 s.srv.URL + "/token",
		"registration_endpoint":                          s.srv.URL + "/register",
		"response_types_supported":                       []string{"code"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          []string{"none"},
		"scopes_supported":                               []string{"read", s.AdminScope, "offline_access"},
		"authorization_response_iss_parameter_supported": true,
	})
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var md struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	if err := json.NewDecoder(r.Body).Decode(&md); err != nil || len(md.RedirectURIs) == 0 {
		http.Error(w, `{"error":"invalid_client_metadata"}`, http.StatusBadRequest)
		return
	}
	id := "client-" + rand.Text()[:8]
	s.mu.Lock()
	if s.Hostile {
		id += Escapes
	}
	s.clients[id] = md.RedirectURIs[0]
	s.mu.Unlock()
	s.logf("POST /register")
	w.WriteHeader(http.StatusCreated)
	writeJSON(w, map[string]any{"client_id": id, "redirect_uris": md.RedirectURIs, "token_endpoint_auth_method": "none"})
}

// authorize plays the person who approves: it redirects straight back
// with a code (or as the switches say).
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	redirect, known := s.clients[q.Get("client_id")]
	issuer, hostile := s.Issuer, s.Hostile
	s.mu.Unlock()
	s.logf("GET /authorize scope=%s resource=%s", q.Get("scope"), q.Get("resource"))
	if !known || redirect != q.Get("redirect_uri") || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	back, _ := url.Parse(redirect)
	v := url.Values{"state": {q.Get("state")}, "iss": {issuer}}
	if s.BadIss {
		v.Set("iss", "https://evil.example")
	}
	if s.DenyAuthorize {
		v.Set("error", "access_denied")
		v.Set("error_description", "the person said no")
		if hostile {
			v.Set("error", "access_denied"+Escapes)
			v.Set("error_description", "the person said no"+Escapes)
		}
	} else {
		code := "code-" + rand.Text()
		s.mu.Lock()
		s.codes[code] = grant{client: q.Get("client_id"), challenge: q.Get("code_challenge"), resource: q.Get("resource"), scopes: strings.Fields(q.Get("scope"))}
		s.mu.Unlock()
		v.Set("code", code)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	s.logf("POST /token grant_type=%s", r.PostForm.Get("grant_type"))
	if s.HTMLToken {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body>Sign in again</body></html>")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var g grant
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		code := r.PostForm.Get("code")
		var ok bool
		g, ok = s.codes[code]
		delete(s.codes, code)
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge || r.PostForm.Get("resource") != g.resource {
			w.WriteHeader(http.StatusBadRequest)
			writeJSON(w, map[string]any{"error": "invalid_grant"})
			return
		}
	case "refresh_token":
		var ok bool
		g, ok = s.refresh[r.PostForm.Get("refresh_token")]
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			writeJSON(w, map[string]any{"error": "invalid_grant"})
			return
		}
		s.Refreshs++
	default:
		w.WriteHeader(http.StatusBadRequest)
		writeJSON(w, map[string]any{"error": "unsupported_grant_type"})
		return
	}
	access, refresh := "at-"+rand.Text(), "rt-"+rand.Text()
	g.expiry = time.Now().Add(s.TokenTTL)
	s.tokens[access] = g
	s.refresh[refresh] = g
	s.Issued++
	tokenType, scope := "Bearer", strings.Join(g.scopes, " ")
	if s.Hostile {
		tokenType, scope = "Bearer"+Escapes, scope+" "+Escapes
	}
	writeJSON(w, map[string]any{"access_token": access, "token_type": tokenType, "expires_in": int(s.TokenTTL.Seconds()),
		"refresh_token": refresh, "scope": scope})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// Browser plays the person's browser: it opens the authorization URL,
// does not follow the redirect, and requests its Location (mcpeek's
// callback). It reports where it ended.
func Browser(ctx context.Context, authURL string) (string, error) {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 10 * time.Second}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if loc == "" {
		return "", fmt.Errorf("the authorization endpoint answered %s without a redirect", resp.Status)
	}
	return loc, nil
}

// Follow requests a redirect target (mcpeek's callback) and returns its
// status.
func Follow(ctx context.Context, loc string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
