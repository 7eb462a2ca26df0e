// Package tui is mcpeek's terminal inspector: a Bubble Tea program with tabs
// for tools, resources, prompts, elicitations, the wire log and server info.
//
// It is not built yet; until it is, running mcpeek without a subcommand
// prints a summary of the server and the commands to try.
package tui
