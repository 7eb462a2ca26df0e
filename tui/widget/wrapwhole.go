package widget

import "github.com/charmbracelet/x/ansi"

// WrapWhole breaks a URL or a command at the edge, wherever it falls, so
// that none of it is cut and its spaces survive for copying.
func WrapWhole(s string, width int) string { return ansi.Hardwrap(s, max(width, 10), true) }
