// Command mcpeek is a terminal MCP inspector whose speciality is
// elicitations: it connects to one MCP server, lists and calls what it
// offers, and answers the questions the server asks of its user.
//
// The command line lives in internal/cli; this is only its entry point.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpeek/mcpeek/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
