// Command mcpgo is an MCP server built with github.com/mark3labs/mcp-go, for
// testdata/interop/run.sh: a tool that asks its user for a form and a tool
// that asks the client's model for a completion, each returning what it got,
// and a resource (mcp-go adds the 2026-07-28 cache hints to its read in that
// era, and nothing before).
// Both are written in mcp-go's multi round-trip style, so one handler serves
// both protocol eras: in 2026-07-28 the call returns an input_required result
// and the client retries with the answers; against a 2025-11-25 client mcp-go
// sends elicitation/create or sampling/createMessage itself and re-runs the
// handler with the answer.
//
// It speaks over stdio, or with -http ADDR over streamable HTTP at /mcp. It
// lives in its own module so that mcpeek's module does not depend on mcp-go.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The keys of the input requests, chosen by the server and echoed back by
// the client.
const (
	profileKey = "profile"
	answerKey  = "answer"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at `ADDR`/mcp instead of stdio")
	flag.Parse()
	s := server.NewMCPServer("mcpeek-interop-mcpgo", "1.0.0",
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithElicitation(),
	)
	s.EnableSampling()
	s.AddTool(mcp.NewTool("register",
		mcp.WithDescription("asks for a profile in a form and returns the answer"),
	), register)
	s.AddTool(mcp.NewTool("ask_model",
		mcp.WithDescription("asks the client's model a question and returns its reply"),
		mcp.WithString("question", mcp.Required(), mcp.Description("what to ask")),
	), askModel)
	s.AddResource(mcp.NewResource("mcpgo://greeting", "greeting", mcp.WithMIMEType("text/plain")), greeting)
	var err error
	if *addr != "" {
		err = serveHTTP(s, *addr)
	} else {
		err = server.ServeStdio(s)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpgo:", err)
		os.Exit(1)
	}
}

// profileSchema is a flat form of typed fields: a string with a length
// bound, an e-mail, an integer with bounds, a number, a boolean with a
// default and a single-select enum.
var profileSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"name":       map[string]any{"type": "string", "title": "Name", "minLength": 1},
		"email":      map[string]any{"type": "string", "title": "E-mail", "format": "email"},
		"age":        map[string]any{"type": "integer", "title": "Age", "minimum": 0, "maximum": 150},
		"height":     map[string]any{"type": "number", "title": "Height (m)"},
		"newsletter": map[string]any{"type": "boolean", "title": "Newsletter", "default": false},
		"plan":       map[string]any{"type": "string", "title": "Plan", "enum": []string{"free", "pro", "team"}},
	},
	"required": []string{"name", "email", "plan"},
}

// register asks for a profile and returns the action and content it got, as
// text and as structured content.
func register(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	answer := server.ElicitationResponse(req.Params.InputResponses, profileKey)
	if answer == nil {
		return server.NewInputRequestBuilder("step=profile").
			Elicit(profileKey, mcp.ElicitationParams{
				Mode:            mcp.ElicitationModeForm,
				Message:         "Register with mcp-go: who are you?",
				RequestedSchema: profileSchema,
			}).
			ToolResult(), nil
	}
	got := map[string]any{"action": string(answer.Action), "requestState": req.Params.RequestState}
	if answer.Content != nil {
		got["content"] = answer.Content
	}
	return structured(got)
}

// askModel asks the client's model the question and returns the reply's
// text and model.
func askModel(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	reply := server.SamplingResponse(req.Params.InputResponses, answerKey)
	if reply == nil {
		question := req.GetString("question", "")
		return server.NewInputRequestBuilder("step=sample").
			Sample(answerKey, mcp.CreateMessageParams{
				Messages: []mcp.SamplingMessage{{
					Role:    mcp.RoleUser,
					Content: mcp.NewTextContent(question),
				}},
				MaxTokens: 100,
			}).
			ToolResult(), nil
	}
	text, err := replyText(reply.Content)
	if err != nil {
		return nil, err
	}
	return structured(map[string]any{"model": reply.Model, "role": string(reply.Role), "text": text})
}

// replyText is the text of a sampling reply's content block. mcp-go hands it
// over as an mcp.TextContent when it sent the request itself (2025-11-25)
// and as the decoded JSON object when it came back in an input response
// (2026-07-28), so it is read through its JSON form.
func replyText(content any) (string, error) {
	b, err := json.Marshal(content)
	if err != nil {
		return "", fmt.Errorf("encode the reply's content: %w", err)
	}
	var block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &block); err != nil {
		return "", fmt.Errorf("the reply's content is not one content block: %w", err)
	}
	if block.Type != "text" {
		return "", fmt.Errorf("the reply's content is %q, not text", block.Type)
	}
	return block.Text, nil
}

// structured returns v as the result's structured content and as its text.
func structured(v map[string]any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode the result: %w", err)
	}
	return mcp.NewToolResultStructured(v, string(b)), nil
}

// greeting is the text of mcpgo://greeting.
func greeting(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "hello from mcp-go"}}, nil
}

// serveHTTP serves s as streamable HTTP at addr/mcp, saying so once it
// listens, so that whoever waits for the line can connect at once.
func serveHTTP(s *server.MCPServer, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(s))
	fmt.Fprintf(os.Stderr, "mcpgo: listening on http://%s/mcp\n", ln.Addr())
	return http.Serve(ln, mux)
}
