package record

import (
	"bytes"
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
