package oauth

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// observed is what the authorization requests revealed: the narration's
// facts, and the secrets to redact.
type observed struct {
	issuer  string
	secrets []string
}

// observer watches the authorization requests go by, to narrate them
// (without secrets) and to learn the authorization server's issuer and
// the secrets it hands out. It changes nothing.
type observer struct {
	base http.RoundTripper
	a    *Authorizer
}

// maxObservedBody is the most of a response the observer reads to learn
// from; larger bodies pass through unread by it.
const maxObservedBody = 1 << 20

func (o *observer) RoundTrip(r *http.Request) (*http.Response, error) {
	base := o.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(r)
	where := r.Method + " " + r.URL.Redacted()
	if i := strings.IndexByte(where, '?'); i >= 0 {
		where = where[:i]
	}
	if err != nil {
		o.a.logf("%s: %s", where, o.a.redact(err.Error()))
		return resp, err
	}
	o.a.logf("%s → %s", where, resp.Status)
	if resp.StatusCode/100 != 2 || resp.ContentLength > maxObservedBody {
		return resp, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxObservedBody+1))
	rest := resp.Body
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), rest), rest}
	if err != nil || len(body) > maxObservedBody {
		return resp, nil
	}
	o.learn(r, body)
	return resp, nil
}

// learn takes the facts and secrets out of one response.
func (o *observer) learn(r *http.Request, body []byte) {
	var doc struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		Issuer               string   `json:"issuer"`
		ClientID             string   `json:"client_id"`
		ClientSecret         string   `json:"client_secret"`
		AccessToken          string   `json:"access_token"`
		RefreshToken         string   `json:"refresh_token"`
		IDToken              string   `json:"id_token"`
	}
	if json.Unmarshal(body, &doc) != nil {
		return
	}
	for _, s := range []string{doc.ClientSecret, doc.AccessToken, doc.RefreshToken, doc.IDToken} {
		o.a.secret(s)
	}
	a := o.a
	a.mu.Lock()
	defer a.mu.Unlock()
	path := r.URL.Path
	switch {
	case len(doc.AuthorizationServers) > 0: // protected resource metadata, wherever it was found
		a.state.MetadataURL = r.URL.Redacted()
	case (strings.Contains(path, "/.well-known/oauth-authorization-server") || strings.Contains(path, "/.well-known/openid-configuration")) && doc.Issuer != "":
		a.seen.issuer = doc.Issuer
		a.state.Issuer = doc.Issuer
	case r.Method == http.MethodPost && doc.ClientID != "" && doc.AccessToken == "":
		a.state.Registration, a.state.ClientID = "dynamic client registration", doc.ClientID
	}
}
