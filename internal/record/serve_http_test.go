package record

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServeHTTPLetsSlowClientsGo: a client that trickles its headers or
// its body, or keeps a connection idle, is let go after the server's
// timeouts instead of holding it (a thousand such connections held a
// served recording for as long as they liked); an event stream answering
// a request read whole outlasts the read timeout.
func TestServeHTTPLetsSlowClientsGo(t *testing.T) {
	s := newServer(t, legacyRevision, append([]string{
		"send", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		"recv", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`,
	}, toolsRecording...)...)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- s.serveOn(ctx, []net.Listener{ln}, true, httpTimeouts{header: 200 * time.Millisecond, read: 300 * time.Millisecond, idle: 300 * time.Millisecond})
	}()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serveOn: %v", err)
		}
	}()
	addr := ln.Addr().String()
	dial := func(request string) net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		if _, err := io.WriteString(c, request); err != nil {
			t.Fatal(err)
		}
		return c
	}

	// A session, and its GET stream, open before the slow clients come.
	resp, err := http.Post("http://"+addr+"/", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	stream := dial("GET / HTTP/1.1\r\nHost: " + addr + "\r\n" + sessionHeader + ": " + resp.Header.Get(sessionHeader) + "\r\n\r\n")
	head, err := http.ReadResponse(bufio.NewReader(stream), nil)
	if err != nil || head.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %v %v", err, head)
	}

	for name, request := range map[string]string{
		"trickled headers": "POST / HTTP/1.1\r\nHost: " + addr + "\r\n",
		"trickled body":    "POST / HTTP/1.1\r\nHost: " + addr + "\r\nContent-Length: 100\r\n\r\n{",
		"idle after one":   "DELETE / HTTP/1.1\r\nHost: " + addr + "\r\n\r\n",
	} {
		c := dial(request)
		_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
		_, err := io.Copy(io.Discard, c)
		if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
			t.Errorf("%s: the connection is still held after 20s", name)
		}
	}

	// The slow clients were let go, so the read timeout has passed since
	// the stream began: the stream is still open, with nothing to read.
	_ = stream.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	n, err := head.Body.Read(make([]byte, 64))
	if ne := net.Error(nil); n > 0 || !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("the GET stream ended with the read timeout: read %d bytes, %v", n, err)
	}
}
