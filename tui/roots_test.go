//lint:file-ignore SA1019 roots are deprecated from 2026-07-28 on, but servers still use them and mcpeek offers them (docs/architecture.md, "Sampling, roots and notifications").

package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A root added in the inspector, as a path or a URI, is what the server
// gets from roots/list next; a root removed is gone from it. In both eras.
func TestAddAndRemoveRootsInTheInspector(t *testing.T) {
	t.Parallel()
	here, err := mcpclient.RootURI(".")
	if err != nil {
		t.Fatal(err)
	}
	k := keys.NewMap()
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Connect: inMemory(fixtureServer, era)}, 120, 30).expect("list_roots")
			in.press(k.Tabs.Roots).expect("(none: a adds one)")
			in.press(layer.RootsKeys.Add).typeText(".").press(layer.RootsKeys.Confirm).expect(here)
			in.press(layer.RootsKeys.Add).typeText("https://example.com/x").press(layer.RootsKeys.Confirm).expect("is not a file:// URI")
			in.keys("ctrl+u").typeText("file:///zz/data").press(layer.RootsKeys.Confirm).expect("> file:///zz/data")
			in.press(layer.RootsKeys.Close).selectTool("list_roots").keys("enter").expectAll("2 roots: ", "file:///zz/data")
			// The roots are in the order of their URIs: ↓ selects the second.
			in.press(k.Tabs.Roots).expect("  file:///zz/data").press(layer.RootsKeys.Down).expect("> file:///zz/data").press(layer.RootsKeys.Remove, layer.RootsKeys.Close)
			in.keys("enter").expect("1 roots: ")
			if view := in.screen(); strings.Contains(view, "file:///zz/data") {
				t.Errorf("the root removed is still offered:\n%s", view)
			}
			if roots := in.m.conn.Roots(); len(roots) != 1 || roots[0].URI != here {
				t.Errorf("the connection offers %v, want %s alone", roots, here)
			}
		})
	}
}

// The Info tab lists the roots offered, and says how to change them.
func TestInfoListsTheRoots(t *testing.T) {
	t.Parallel()
	k := keys.NewMap()
	in := open(t, Options{}, 100, 30).expect("list_roots")
	in.press(k.Tabs.Roots, layer.RootsKeys.Add).typeText("file:///zz/data").press(layer.RootsKeys.Confirm).expect("> file:///zz/data")
	in.press(layer.RootsKeys.Close).keys("6").expectAll("roots offered", "R adds or removes", "  file:///zz/data")
}

// The roots layer, at each size.
func TestRootsGoldens(t *testing.T) {
	t.Parallel()
	k := keys.NewMap()
	for _, size := range sizes {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{}, size.w, size.h).expect("list_roots")
			in.press(k.Tabs.Roots, layer.RootsKeys.Add).typeText("file:///zz/data").press(layer.RootsKeys.Confirm).expect("> file:///zz/data")
			in.press(layer.RootsKeys.Add).typeText("file:///srv/logs").press(layer.RootsKeys.Confirm).expect("> file:///srv/logs")
			in.press(layer.RootsKeys.Up, layer.RootsKeys.Add).typeText("ftp://x").press(layer.RootsKeys.Confirm).expect("is not a file:// URI")
			checkGolden(t, in.screen())
		})
	}
}

// The roots the person added or removed outlive a reconnection: the new
// connection, which offers the --root roots again, is given them as the
// person left them.
func TestRootsOutliveAReconnection(t *testing.T) {
	t.Parallel()
	connected := make(chan *mcpclient.Conn, 2)
	connect := func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
		conn, err := mcpclient.Connect(ctx, mcpclient.Config{
			Target: mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: fixtureServer},
			Asker:  asker, Records: mcpclient.NewRecorder(nil),
			Roots: []*mcp.Root{{URI: "file:///aa/flag"}}, OfferRoots: true,
		})
		connected <- conn
		return conn, err
	}
	k := keys.NewMap()
	in := open(t, Options{Connect: connect}, 120, 30).expect("list_roots")
	<-connected
	in.press(k.Tabs.Roots).expect("> file:///aa/flag").press(layer.RootsKeys.Remove, layer.RootsKeys.Add)
	in.typeText("file:///zz/data").press(layer.RootsKeys.Confirm).expect("> file:///zz/data").press(layer.RootsKeys.Close)
	in.press(k.Tabs.Reconnect) // the lists go with the old connection
	conn := <-connected
	sentBy(t, conn, "tools/list")
	in.expect("list_roots") // the new connection's
	in.selectTool("list_roots").keys("enter").expectAll("1 roots: ", "file:///zz/data")
	in.screen()
	if roots := conn.Roots(); len(roots) != 1 || roots[0].URI != "file:///zz/data" {
		t.Errorf("the new connection offers %v, want file:///zz/data alone", roots)
	}
}
