// Package mcpclient connects mcpeek to one MCP server: transports, the
// capabilities it advertises, the elicitation router, the wire log, and the
// headless runs.
//
// See docs/architecture.md, "Packages" and "The path of one elicitation".
package mcpclient
