// Package apphost renders a form elicitation in the server's own MCP App, in
// the person's browser: a loopback HTTP and WebSocket server with two
// origins on one port (the bridge page on 127.0.0.1, the app's sandbox on
// localhost), embedded pages that only relay messages, and the Go side of
// the MCP Apps host protocol, one session and one tab per request.
//
// See docs/architecture.md, "The app host", and docs/app-host.md for why it
// is built this way.
package apphost
