//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package mcpclient_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// countingAsker declines every question, counting them.
type countingAsker struct{ n atomic.Int32 }

func (a *countingAsker) Ask(context.Context, *mcpclient.NativeRequest) (*mcp.ElicitResult, error) {
	a.n.Add(1)
	return &mcp.ElicitResult{Action: "decline"}, nil
}

func (a *countingAsker) Sample(context.Context, *mcpclient.SampleRequest) (*mcp.CreateMessageWithToolsResult, error) {
	a.n.Add(1)
	return nil, mcpclient.ErrSampleRejected
}

// While a stand-in stands, the server's questions go to it and not to
// the connection's own asker and sampler; once restored they go back; a
// second stand-in is refused while one stands.
func TestStandInAnswersInPlaceOfTheConnectionsAsker(t *testing.T) {
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			own := &countingAsker{}
			conn := connectFixture(t, era, mcpclient.Config{Asker: own, Sampler: own})
			script := &mcpclient.HeadlessAsker{Strict: true, Answers: mustAnswers(t, `[
				{"match":{"message":"option"},"action":"accept","content":{"choice":"option-b"}},
				{"method":"sampling/createMessage","result":{"content":{"type":"text","text":"scripted"},"model":"m"}}]`)}
			restore, err := conn.StandIn(script)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.StandIn(script); !errors.Is(err, mcpclient.ErrStandIn) {
				t.Errorf("a second stand-in: err = %v, want ErrStandIn", err)
			}
			if _, text, err := callText(t, conn, "choose_option", ""); err != nil || text != "accept: option-b" {
				t.Errorf("choose_option with the stand-in = %q, %v; want the script's answer", text, err)
			}
			if _, text, err := callText(t, conn, "ask_model", ""); err != nil || text != "m (assistant) replied: scripted" {
				t.Errorf("ask_model with the stand-in = %q, %v; want the script's reply", text, err)
			}
			if n := own.n.Load(); n != 0 {
				t.Errorf("the connection's own asker was asked %d times while the stand-in stood", n)
			}
			restore()
			restore() // twice is harmless
			if _, text, _ := callText(t, conn, "choose_option", ""); text != "decline" {
				t.Errorf("choose_option after restore = %q, want the own asker's decline", text)
			}
			if own.n.Load() != 1 {
				t.Errorf("own asker asked %d times after restore, want 1", own.n.Load())
			}
			again, err := conn.StandIn(script)
			if err != nil {
				t.Fatalf("a stand-in after restore: %v", err)
			}
			again()
		})
	}
}
