// Package e2e holds mcpeek's system tests: they drive the command line
// in-process through cli.Run, as the program's main does, and the built
// binary where a test needs a real process, against the embedded fixture,
// misbehaving servers (this package's test binary doubles as them), a real
// headless Chromium and software written elsewhere (the official MCP Apps
// SDK, server-everything). It also holds the process-level benchmarks of
// docs/performance.md.
//
// The browser tests skip without Chromium, and fail without it when
// MCPEEK_REQUIRE_BROWSER=1.
package e2e
