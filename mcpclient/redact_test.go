//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package mcpclient_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A secret a server quotes where mcpeek cuts what it hands on (a log
// message's data at MaxLogData, a progress message at 500 characters) is
// redacted before the cut: no part of it is left at the cut, in none of
// its forms (its characters escaped by JSON, then escaped again as cut
// data is).
func TestSecretsRedactedBeforeTheCut(t *testing.T) {
	const secret = `Zq9-<tok>&"\-0123456789`
	escaped, _ := json.Marshal(secret) // "Zq9-\u003ctok\u003e\u0026\"\\-0123456789"
	wire := mcpclient.NewWireLog(0, nil)
	wire.Secret(secret)
	got := make(chan mcpclient.Event, 16)
	conn := connectHostile(t, mcpclient.Config{Wire: wire, LogLevel: "debug", OnEvent: func(e mcpclient.Event) { got <- e }},
		func(ctx context.Context, ss *mcp.ServerSession) string {
			// The escaped secret starts 20 bytes before the cut and ends
			// past it; [redacted] in its place ends before.
			_ = ss.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: strings.Repeat(".", mcpclient.MaxLogData-21) + secret + strings.Repeat(".", 100)})
			_ = ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: "mcpeek-1", Progress: 1,
				Message: strings.Repeat(".", 490) + secret})
			return "done"
		})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := conn.CallWithProgress(ctx, "ask", nil, nil); err != nil {
		t.Fatal(err)
	}
	var log, progress string
	for log == "" || progress == "" {
		select {
		case e := <-got:
			switch e := e.(type) {
			case mcpclient.LogEvent:
				log = string(e.Data)
			case mcpclient.ProgressEvent:
				progress = e.Message
			}
		case <-ctx.Done():
			t.Fatalf("log %d bytes, progress %d bytes: not both arrived", len(log), len(progress))
		}
	}
	for name, text := range map[string]string{"log data": log, "progress message": progress} {
		if strings.Contains(text, "Zq9") || strings.Contains(text, string(escaped[1:8])) {
			t.Errorf("the %s holds a part of the secret: …%s", name, text[max(len(text)-80, 0):])
		}
		if !strings.Contains(text, mcpclient.Redacted) {
			t.Errorf("the %s does not say [redacted]: …%s", name, text[max(len(text)-80, 0):])
		}
	}
}
