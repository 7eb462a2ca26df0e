package widget

import "github.com/mcpeek/mcpeek/tui/keys"

// What help_test.go (package widget_test, which takes the help screen's
// sections from tui/layer, where each layer declares its keys) reads of
// the help screen's layout.

// HelpSize is the room a section of the help screen takes.
type HelpSize = helpSize

// Rows is how many lines the section takes.
func (z helpSize) Rows() int { return z.rows }

// SizeHelp is sizeHelp.
func SizeHelp(sec keys.Section) HelpSize { return sizeHelp(sec) }

// PackedWidth is packedWidth.
func PackedWidth(sizes []HelpSize, height int) int { return packedWidth(sizes, height) }

// PackHelp is packHelp.
func (c *Common) PackHelp(sections []keys.Section, height int) string {
	return c.packHelp(sections, height)
}
