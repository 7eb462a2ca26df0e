package oauthtest

import (
	"context"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/mcpclient/oauth"
)

// LoginInto logs in to s once, as `mcpeek auth login` would (the consent
// page followed as a browser would), keeping the token in the store at
// path, and returns the access token issued.
func (s *Server) LoginInto(t testing.TB, path string) string {
	t.Helper()
	a, err := oauth.New(oauth.Options{Resource: s.URL, Store: oauth.OpenStore(path), Show: func(string) {},
		Open: func(authURL string) (func(), error) {
			go func() {
				if loc, err := Browser(context.Background(), authURL); err == nil {
					_, _ = Follow(context.Background(), loc)
				}
			}()
			return nil, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	conn, err := mcpclient.Connect(context.Background(), mcpclient.Config{Target: mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: s.URL}, Auth: a})
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	tokens := s.AccessTokens()
	if len(tokens) != 1 {
		t.Fatalf("%d tokens issued, want 1", len(tokens))
	}
	return tokens[0]
}
