// Package surfacetest serves a surface file as a live MCP server over
// streamable HTTP, in process: the test servers of `mcpeek diff`
// (testdata/surface) are surface files, and a test reaches each as a live
// side by its URL, through the same path as any server.
package surfacetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"

	"github.com/mcpeek/mcpeek/internal/surface"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Serve serves the surface file at path until the test ends and returns
// its URL.
func Serve(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	h, err := Handler(s)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// Handler is a streamable HTTP handler of a server with the surface s:
// its identity, capabilities, revisions, tools, resources, templates and
// prompts. Calls, reads and gets answer with empty results.
func Handler(s *surface.Surface) (http.Handler, error) {
	server, err := Server(s)
	if err != nil {
		return nil, err
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	return withTools(h, s), nil
}

// Server is an MCP server with the surface s, but for its tools as
// written: go-sdk's Tool has no execution member and writes every hint of
// annotations (Handler lists the surface's own).
func Server(s *surface.Surface) (*mcp.Server, error) {
	var impl mcp.Implementation
	var caps mcp.ServerCapabilities
	if err := remarshal(s.ServerInfo, &impl); err != nil {
		return nil, fmt.Errorf("serverInfo: %w", err)
	}
	if err := remarshal(s.Capabilities, &caps); err != nil {
		return nil, fmt.Errorf("capabilities: %w", err)
	}
	server := mcp.NewServer(&impl, &mcp.ServerOptions{Capabilities: &caps, SupportedProtocolVersions: s.SupportedVersions})
	for _, item := range s.Tools {
		var t mcp.Tool
		if err := remarshal(item, &t); err != nil {
			return nil, fmt.Errorf("tool %v: %w", item["name"], err)
		}
		server.AddTool(&t, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{}}, nil
		})
	}
	read := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: ""}}}, nil
	}
	for _, item := range s.Resources {
		var r mcp.Resource
		if err := remarshal(item, &r); err != nil {
			return nil, fmt.Errorf("resource %v: %w", item["uri"], err)
		}
		server.AddResource(&r, read)
	}
	for _, item := range s.ResourceTemplates {
		var r mcp.ResourceTemplate
		if err := remarshal(item, &r); err != nil {
			return nil, fmt.Errorf("template %v: %w", item["uriTemplate"], err)
		}
		server.AddResourceTemplate(&r, read)
	}
	for _, item := range s.Prompts {
		var p mcp.Prompt
		if err := remarshal(item, &p); err != nil {
			return nil, fmt.Errorf("prompt %v: %w", item["name"], err)
		}
		server.AddPrompt(&p, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{}}, nil
		})
	}
	return server, nil
}

func remarshal(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}

// withTools puts each tool as s has it in the tools/list answers of h
// (JSON bodies, not event streams).
func withTools(h http.Handler, s *surface.Surface) http.Handler {
	tools := map[string]any{}
	for _, t := range s.Tools {
		tools[t["name"].(string)] = t
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Only a tools/list answer is held and rewritten: other answers
		// may be streams that stay open (subscriptions/listen).
		var req []byte
		if r.Body != nil {
			req, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(req))
		}
		if !bytes.Contains(req, []byte(`"tools/list"`)) {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if bytes.Contains(body, []byte(`"tools"`)) {
			body = replaceTools(body, tools)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}

func replaceTools(body []byte, by map[string]any) []byte {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return body
	}
	result, _ := m["result"].(map[string]any)
	tools, _ := result["tools"].([]any)
	for i, t := range tools {
		if t, ok := t.(map[string]any); ok {
			if raw, ok := by[fmt.Sprint(t["name"])]; ok {
				tools[i] = raw
			}
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return body
	}
	return out
}
