// Package author writes suites from what a person did: a step of the
// inspector's session saved with + (tui/savetest.go), the tool calls of a
// recording (mcpeek record --to-suite) and, through internal/suite, a
// starter suite (mcpeek test init). Each passes what it writes through
// the one secret rule (internal/secret, Secrets here): a value that rule
// holds secret is written as an {{env.MCPEEK_SECRET_…}} template and is
// hidden from the snapshot and from the expected error message, as +
// always did (docs/architecture.md, "Saving a test").
package author
