// Package apphost is the localhost bridge that renders a form elicitation in
// the server's own MCP App: an HTTP and WebSocket server on loopback with a
// bridge origin and a sandbox origin on one port, embedded pages, and the Go
// side of the MCP Apps host protocol, one session per request.
//
// It is not built yet; until it is, mcpeek refuses --app-host and never
// advertises app-rendered elicitation.
package apphost
