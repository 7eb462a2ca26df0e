//go:build validator

package main

// Built with -tags validator, the floor links the JSON Schema validator
// that mcpeek's design names, whose init compiles the metaschemas of the
// drafts it knows, and does nothing else with it: the least a client that
// carries that validator can do (e2e/bench_process_test.go).
import _ "github.com/santhosh-tekuri/jsonschema/v6"
