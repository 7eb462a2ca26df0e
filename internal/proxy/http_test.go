package proxy

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
	"golang.org/x/oauth2"
)

// startHTTPProxy runs the proxy on a free loopback port in front of the
// server at url and returns its address; the wire log writes to sink.
func startHTTPProxy(t *testing.T, url string, headers http.Header, sink io.Writer) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{
			Target: mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: url, Headers: headers},
			Listen: "127.0.0.1:0", Wire: mcpclient.NewWireLog(0, sink),
			Listening: func(a string) { addr <- a },
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return <-addr
}

// The host's request reaches the server as it was sent, with -H's
// headers, and the server's answer, a stream here, reaches the host as it
// was written; both are in the wire log.
func TestProxyHTTPForwardsAsItIs(t *testing.T) {
	const stream = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
	var gotBody []byte
	var gotHeader http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotBody, _ = io.ReadAll(r.Body)
		gotHeader = r.Header.Clone()
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Mcp-Session-Id", "s-1")
		_, _ = io.WriteString(w, stream)
	}))
	defer srv.Close()
	var sink bytes.Buffer
	addr := startHTTPProxy(t, srv.URL+"/mcp?k=v", http.Header{"X-Api-Key": {"upstream-key"}}, &sink)
	body := `{"jsonrpc":"2.0", "id":1, "method":"tools/list"}`
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/anything", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(answer) != stream || resp.Header.Get("Mcp-Session-Id") != "s-1" {
		t.Errorf("the host got %q (session %q)", answer, resp.Header.Get("Mcp-Session-Id"))
	}
	if string(gotBody) != body || gotHeader.Get("X-Api-Key") != "upstream-key" || gotHeader.Get("Mcp-Protocol-Version") != "2025-11-25" {
		t.Errorf("the server got %q with %v", gotBody, gotHeader)
	}
	if gotHeader.Get("X-Forwarded-For") != "" {
		t.Errorf("the proxy added X-Forwarded-For")
	}
	if !strings.Contains(sink.String(), `"dir":"send","method":"tools/list"`) || !strings.Contains(sink.String(), `"dir":"recv","id":1`) {
		t.Errorf("the wire log lacks the exchange:\n%s", sink.String())
	}
}

// A page of another site is refused: the proxy listens on loopback.
func TestProxyHTTPRefusesOtherOrigins(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the server was reached")
	}))
	defer srv.Close()
	addr := startHTTPProxy(t, srv.URL, nil, io.Discard)
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/", strings.NewReader(`{}`))
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("status %d, want 403", resp.StatusCode)
	}
}

// A 2026-07-28 request whose input the proxy gives (--answer over
// --listen) is POSTed by the proxy itself, with the stored token as the
// host's requests have it.
func TestProxyHTTPOwnPostCarriesTheToken(t *testing.T) {
	posted := make(chan http.Header, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posted <- r.Header.Clone()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{
			Target: mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: srv.URL + "/mcp", Headers: http.Header{"X-Api-Key": {"k"}}},
			Listen: "127.0.0.1:0", Listening: func(a string) { addr <- a },
			Answer: AnswerMissing, Askers: []NamedAsker{{"the test", choiceAsker("b")}},
			Token: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "stored-token", TokenType: "Bearer"}),
		})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pick","_meta":{"` + capsMetaKey + `":{}}}}`
	req, _ := http.NewRequest(http.MethodPost, "http://"+<-addr+"/mcp", strings.NewReader(call))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(answer), `"result"`) {
		t.Errorf("the host got %q", answer)
	}
	h := <-posted
	if h.Get("Authorization") != "Bearer stored-token" || h.Get("X-Api-Key") != "k" {
		t.Errorf("the proxy's POST went without the stored token or -H's header: %v", h)
	}
}
