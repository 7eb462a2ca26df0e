package cli

import (
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/loopback"
)

// TestReplayServeListensWhereLocalhostLeads: `replay --serve --http` with
// a port alone listens on [::1] as well as 127.0.0.1, at one port, so a
// client dialing localhost (which may resolve to ::1 first) reaches the
// recording and not another user's process; a fixed port whose [::1]
// side another process holds is refused, naming it.
func TestReplayServeListensWhereLocalhostLeads(t *testing.T) {
	held, err := net.Listen("tcp6", "[::1]:0")
	if loopback.NoIPv6(err) {
		t.Skip("no IPv6 loopback here")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()

	listeners, local, err := serveListen(":0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, ln := range listeners {
			_ = ln.Close()
		}
	}()
	if !local || len(listeners) != 2 {
		t.Fatalf("listening on %v (loopback %v), want 127.0.0.1 and [::1]", listeners, local)
	}
	v4, v6 := listeners[0].Addr().(*net.TCPAddr), listeners[1].Addr().(*net.TCPAddr)
	if !v4.IP.Equal(net.IPv4(127, 0, 0, 1)) || !v6.IP.Equal(net.IPv6loopback) || v4.Port != v6.Port {
		t.Errorf("listening on %s and %s, want 127.0.0.1 and [::1] at one port", v4, v6)
	}

	port := strconv.Itoa(held.Addr().(*net.TCPAddr).Port)
	for _, addr := range []string{port, "localhost:" + port, "127.0.0.1:" + port} {
		listeners, _, err := serveListen(addr)
		for _, ln := range listeners {
			_ = ln.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "[::1]:"+port+" is in use by another process") {
			t.Errorf("--http %s with [::1]:%s held elsewhere: %v, want a refusal naming it", addr, port, err)
		}
	}
}
