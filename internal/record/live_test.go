package record

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestAttachRecordsFromTheHandshakeOn(t *testing.T) {
	for _, protocol := range []string{"legacy", "modern"} {
		t.Run(protocol, func(t *testing.T) {
			conn, err := mcpclient.Connect(t.Context(), mcpclient.Config{
				Target:       mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{}) }},
				Protocol:     protocol,
				Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
				Asker:        nameAsker{},
				Wire:         mcpclient.NewWireLog(0, nil),
			})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := conn.Call(t.Context(), "multi_round", nil); err != nil { // before the recording
				t.Fatal(err)
			}
			var buf bytes.Buffer
			stop, err := Attach(conn, &buf)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Call(t.Context(), "multi_round", nil); err != nil {
				t.Fatal(err)
			}
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			n := buf.Len()
			if _, err := conn.Call(t.Context(), "multi_round", nil); err != nil { // after it
				t.Fatal(err)
			}
			if buf.Len() != n {
				t.Error("written to after stop")
			}
			h, entries, err := Read(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if h.Protocol != conn.ProtocolVersion() || len(h.ServerInfo) == 0 || h.Transport != "stdio" {
				t.Errorf("header = %+v", h)
			}
			if m := entries[0].Method; m != "initialize" && m != "server/discover" {
				t.Errorf("the recording starts with %s %s, not the handshake", entries[0].Dir, m)
			}
			calls := 0
			for _, x := range Exchanges(entries) {
				if x.Method == "tools/call" {
					calls++
				}
			}
			if calls != 1 {
				t.Errorf("%d calls recorded, want the one made while recording", calls)
			}
		})
	}
}

// A recording started long after the handshake, whose messages the wire
// log's ring cut (over 16 KiB) or forgot, still begins with the whole
// handshake, and served it answers the client's handshake.
func TestAttachKeepsALongHandshakeWhole(t *testing.T) {
	long := strings.Repeat("instructions ", 2<<10) // over 16 KiB
	for _, protocol := range []string{"legacy", "modern"} {
		t.Run(protocol, func(t *testing.T) {
			conn, err := mcpclient.Connect(t.Context(), mcpclient.Config{
				Target: mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server {
					return mcp.NewServer(&mcp.Implementation{Name: "long", Version: "1"}, &mcp.ServerOptions{Instructions: long})
				}},
				Protocol: protocol,
				Wire:     mcpclient.NewWireLog(4, nil),
			})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			for range 4 { // the handshake leaves the ring (4 entries)
				if _, err := conn.List(t.Context(), "tools"); err != nil {
					t.Fatal(err)
				}
			}
			var buf bytes.Buffer
			stop, err := Attach(conn, &buf)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.List(t.Context(), "tools"); err != nil {
				t.Fatal(err)
			}
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			h, entries, err := Read(&buf)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewServer(h, entries, 0)
			if err != nil {
				t.Fatal(err)
			}
			c := serveStdio(t, s)
			method := "initialize"
			if h.Protocol == modernRevision {
				method = "server/discover"
			}
			c.send(`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{}}`)
			r := c.read()
			if r["result"] == nil || !strings.Contains(asJSON(r["result"]), long) {
				t.Fatalf("%s answered %.200v, want the recorded result whole", method, r)
			}
			c.end()
		})
	}
}
