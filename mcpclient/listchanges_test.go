package mcpclient_test

import (
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// TestIgnoreListChanges: a connection that shows no list changes asks
// the server for none, and one that does asks for them.
func TestIgnoreListChanges(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		ignore bool
		want   bool // a subscriptions/listen request is sent
	}{{ignore: false, want: true}, {ignore: true, want: false}} {
		wire := mcpclient.NewWireLog(0, nil)
		conn := connectFixture(t, mcpclient.ProtocolModern, mcpclient.Config{Wire: wire, IgnoreListChanges: tt.ignore})
		if _, text, err := callText(t, conn, "count_down", `{"steps":1,"delayMs":0}`); err != nil || text == "" {
			t.Fatalf("ignore=%t: count_down = %q, %v", tt.ignore, text, err)
		}
		listened := false
		for _, e := range wire.Entries() {
			if e.Dir == mcpclient.DirSend && e.Method == "subscriptions/listen" {
				listened = true
			}
		}
		if listened != tt.want {
			t.Errorf("ignore=%t: subscriptions/listen sent = %t, want %t", tt.ignore, listened, tt.want)
		}
	}
}
