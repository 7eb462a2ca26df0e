// What a layer asks of the program beyond the stack (the footer's status
// line, quitting, the clipboard), and the optional interfaces that say how
// the program draws or keys a layer.

package layer

type (
	// AskQuit quits as q does on the tabs: at once, or through the quit
	// prompt when requests are pending.
	AskQuit struct{}
	// Status puts a line on the footer's status line (an error when Err)
	// until the next key.
	Status struct {
		Text string
		Err  bool
	}
	// Copy puts Text on the clipboard; the status line says What was
	// copied.
	Copy struct{ Text, What string }
)

// Typist is a layer that takes text while TypesText: a burst of
// characters in one key event is text then, not keys one by one.
type Typist interface{ TypesText() bool }

// StatusFooter is a layer whose footer gives way to the program's status
// line while there is one; the program clears that line at every key the
// layer gets, as the tabs do.
type StatusFooter interface{ StatusFooter() }

// Banner is a layer drawn above what lies under it (View gets about half
// the height, and what lies under it the rest, with the footer): what it
// does not take it passes on (the app card).
type Banner interface{ Banner() }

// Refresher is a layer that shows what the program holds: the program
// calls Refresh after every message while it is on top, so that its keys
// act on what is on the screen and View only draws.
type Refresher interface{ Refresh() }
