// Package tui is mcpeek's terminal front end: the full-screen inspector,
// and the host that shows each elicitation of `mcpeek call --interactive`
// as a native form on the terminal.
//
// The inspector is one root [Model] whose parts live in files named for
// them: a file per tab (tools.go, resources.go, prompts.go,
// elicitations.go, log.go, info.go), the pending elicitations (queue.go,
// urlcard.go, appcard.go), and the keys (keys.go). See
// docs/architecture.md, section "The inspector".
package tui
