// Package layer holds the screens that lie over the inspector's tabs, one
// type per layer, and the contract between them and the program.
//
// A layer owns its state and its keys, and never reaches into the program
// (this package does not import it): it answers each message with an
// [Action] that the program applies at once, inside the same Update, so
// that a key typed right after the one that opened or closed a layer
// reaches what is then on top. A layer that needs data from the program
// gets it in its constructor or in a message the program sends it; it is
// tested by sending it messages and reading its view or the action it
// returns, without a program or a terminal.
//
// The program keeps the layers in one stack: the top layer is drawn on
// top, gets the keys and gives the footer ([Layer.Help], or [Footer]).
// Where a layer opens in the stack is its [Rank].
package layer

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Layer is one screen over the tabs.
type Layer interface {
	// Update handles a message that reached the layer: the keys while it
	// is on top, its own messages, and the size of the room it is drawn
	// in (a [tea.WindowSizeMsg] of the body, sent when it opens and on
	// every resize).
	Update(msg tea.Msg) Action
	// View draws the layer in width × height cells.
	View(width, height int) string
	// Help is the footer's keys while the layer is on top.
	Help() []key.Binding
}

// Footer is a layer whose footer is a line of its own rather than its
// keys (the quit prompt's question, the help screen's position).
type Footer interface {
	Footer(width int) string
}

// Rank is where a layer opens: on top of the layers of its rank or lower,
// under those of a higher rank.
type Rank int

const (
	// Backdrop layers lie on the tabs, under everything, and leave them
	// usable (the app card).
	Backdrop Rank = iota
	// Normal layers: the newest is on top.
	Normal
	// Prompt layers stay on top until answered (the quit prompt).
	Prompt
)

// Ranked is a layer whose rank is not [Normal].
type Ranked interface {
	Rank() Rank
}

// Seethrough is a layer that is only a footer: what lies under it stays
// drawn (the quit prompt).
type Seethrough interface {
	Seethrough()
}

// FormHolder is a layer that shows a form. The topmost one whose
// HoldsForm is true gets the messages that are not keys (its countdown,
// cursor blinks, focus moves: a form's own messages name no form), even
// under the quit prompt, so that its countdown runs on; and every one
// hears when a form settled (nativeform.DoneMsg, SampleDoneMsg), to act
// if it was its own.
type FormHolder interface {
	HoldsForm() bool
}

// Msg is a message for one layer, To: the program gives it to that layer
// while it is on the stack, and drops it otherwise (a completion's answer
// for a form closed since).
type Msg interface {
	To() Layer
}

// Poll is sent to every layer on the stack about once a second: a layer
// that gives up after a while (the URL consent card's timeout) looks at
// its clock.
type Poll struct{}

// OpenMsg opens Layer over what is on top: what a command returns when a
// layer is to open once the command is done (the page the browser did
// not open).
type OpenMsg struct{ Layer Layer }

// Action is what a layer asks of the program: nil for nothing, or one of
// the types below.
type Action any

type (
	// Close takes the layer off the stack.
	Close struct{}
	// Open puts Layer on the stack, by its rank, over the one that asked.
	Open struct{ Layer Layer }
	// Replace puts Layer where the one that asked lies.
	Replace struct{ Layer Layer }
	// Pass gives the message to what lies under the layer: the key is
	// not the layer's.
	Pass struct{}
	// Cmd is a command for the program to run.
	Cmd struct{ Cmd tea.Cmd }
	// Batch is several actions, applied in order.
	Batch []Action
	// Quit ends the program, cancelling whatever is pending (the quit
	// prompt's yes).
	Quit struct{}
)
