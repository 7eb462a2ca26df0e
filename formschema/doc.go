// Package formschema is the model of an elicitation's requested schema: it
// parses the flat subset of JSON Schema that form elicitations use into
// ordered fields, validates answers against it (formats asserted) and words
// every problem for a person. It has no user interface; the terminal form
// (package nativeform), the app path and the headless runs share it.
// See docs/architecture.md, "The requested schema".
package formschema
