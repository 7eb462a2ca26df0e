// Package nativeform is the terminal form of an elicitation: a Bubble Tea
// model wrapping a huh form, one typed control per field of a
// [formschema.Schema] (huh's, and its own: a calendar for a date, a slider
// for a bounded number, a segmented choice for a few options), with
// submit, decline and cancel kept apart and a countdown; and a plain
// line-by-line mode for terminals without a screen.
// See docs/architecture.md, "The native form".
package nativeform
