// Package cli is mcpeek's command line: the inspector and the headless
// commands (call, list, caps), the fixture server, help and version.
//
// One table of commands (commands.go) feeds dispatch, `mcpeek help`,
// `mcpeek help COMMAND` and the usage text. Each command has an options
// struct that parse fills in from the command line and checks, and that
// run acts on. Every command that reaches a server, and the inspector,
// share one connection setup (connect.go), and errors become exit codes in
// one place (exit.go). See docs/architecture.md, "The command line" and
// "Headless runs and exit codes".
//
// [Run] is the whole program, callable in-process: the system tests in e2e
// drive it as a person would drive the binary from a shell.
package cli
