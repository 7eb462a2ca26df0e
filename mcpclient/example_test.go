package mcpclient_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Connect to a server, call a tool that asks its user a question, and
// answer the question from an answers file, as `mcpeek call --answers`
// does. The server here is the embedded fixture; a command line or a URL
// works the same way through [mcpclient.ParseTarget].
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	target, err := mcpclient.ParseTarget(nil, nil, nil, func() *mcp.Server { return fixture.New(fixture.Options{}) })
	if err != nil {
		log.Fatal(err)
	}
	answers, err := mcpclient.ParseAnswers([]byte(`[
		{"match": {"message": "Choose option"}, "action": "accept", "content": {"choice": "option-b"}}
	]`))
	if err != nil {
		log.Fatal(err)
	}
	records := mcpclient.NewRecorder(nil)
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{
		Target:       target,
		Protocol:     "auto",
		Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
		Asker:        &mcpclient.HeadlessAsker{Answers: answers, Policy: mcpclient.PolicyCancel},
		Records:      records,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()

	res, err := conn.Call(ctx, "choose_option", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("protocol:", conn.ProtocolVersion())
	fmt.Println("result:", res.Content[0].(*mcp.TextContent).Text)
	for _, r := range records.Records() {
		fmt.Printf("%s: %s via %s\n", r.Key, r.Action, r.Path)
	}
	// Output:
	// protocol: 2026-07-28
	// result: accept: option-b
	// e-1: accept via native
}
