// Command floor is the least a Go MCP client can do, the floor that
// mcpeek's process wall time is compared with (e2e/bench_process_test.go): it
// starts a server over stdio with the go-sdk, lists its tools, prints them
// as JSON and closes. It waits for the server to exit as long as mcpeek
// does (mcpclient/conn.go), so that the comparison is fair.
//
//	go build -o /tmp/floor ./testdata/perf/floor
//	/tmp/floor -- SERVER-COMMAND [ARGS...]
//
// With -call TOOL it calls that tool instead and accepts every
// elicitation with the -content JSON object, as an answers file would.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// terminateDuration is mcpclient's CommandTransport.TerminateDuration.
const terminateDuration = 250 * time.Millisecond

func main() {
	call := flag.String("call", "", "call this tool instead of listing the tools")
	content := flag.String("content", "{}", "with -call: accept elicitations with this JSON object")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: floor [-call TOOL -content JSON] -- SERVER-COMMAND [ARGS...]")
		os.Exit(2)
	}
	if err := run(*call, *content, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(3)
	}
}

func run(tool, content string, command []string) error {
	var answer map[string]any
	if err := json.Unmarshal([]byte(content), &answer); err != nil {
		return fmt.Errorf("-content: %w", err)
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "floor", Version: "1"}, &mcp.ClientOptions{
		// The core capabilities mcpeek advertises, so that the server offers
		// the same tools to both.
		// (server-everything offers its sampling tool only to a client that
		// says it can sample.)
		Capabilities: &mcp.ClientCapabilities{
			Elicitation: &mcp.ElicitationCapabilities{
				Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
			Sampling: &mcp.SamplingCapabilities{},
		},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: answer}, nil
		},
	})
	ctx := context.Background()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: terminateDuration}, nil)
	if err != nil {
		return err
	}
	defer session.Close()
	var out any
	if tool != "" {
		out, err = session.CallTool(ctx, &mcp.CallToolParams{Name: tool})
	} else {
		var tools []*mcp.Tool
		for t, lerr := range session.Tools(ctx, nil) {
			if lerr != nil {
				err = lerr
				break
			}
			tools = append(tools, t)
		}
		out = map[string]any{"tools": tools}
	}
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(append(b, '\n'))
	return err
}
