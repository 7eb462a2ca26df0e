package tui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// failingServer offers tools, resources and prompts, but its answer to
// the method failing is an error.
func failingServer(failing string) func() *mcp.Server {
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "failing", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "a_tool", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
		s.AddResource(&mcp.Resource{URI: "file:///a_resource", Name: "a_resource"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{}, nil
			})
		s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "file:///{a_template}", Name: "a_template"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{}, nil
			})
		s.AddPrompt(&mcp.Prompt{Name: "a_prompt"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{}, nil
		})
		s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == failing {
					return nil, errors.New("kaboom")
				}
				return next(ctx, method, req)
			}
		})
		return s
	}
}

// A list request that fails shows its error on its tab, instead of an
// empty list that looks like the server has nothing; the other lists
// still show.
func TestFailedListShowsItsError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method, tab string
		still       []string // what the tab still lists
	}{
		{"tools/list", "1", nil},
		{"resources/list", "2", []string{"a_template"}},
		{"resources/templates/list", "2", []string{"a_resource"}},
		{"prompts/list", "3", nil},
	} {
		t.Run(tc.method, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Connect: inMemory(failingServer(tc.method), "legacy")}, 100, 30).expect("failing")
			in.keys("6", tc.tab).expect("kaboom") // from another tab, so that the list is drawn anew
			view := in.screen()
			for _, want := range append([]string{tc.method, "kaboom"}, tc.still...) {
				if !strings.Contains(view, want) {
					t.Errorf("the tab lacks %q:\n%s", want, view)
				}
			}
			if strings.Contains(view, "(none)") {
				t.Errorf("a failed list shows as empty:\n%s", view)
			}
		})
	}
}
