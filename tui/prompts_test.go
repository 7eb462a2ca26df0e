package tui

import (
	"testing"

	"github.com/mcpeek/mcpeek/tui/layer"
)

// Before enter, the Prompts pane says what the prompt is: its title,
// name, description and each argument, required or not; getting it shows
// the description the server gave with the messages.
func TestPromptPaneDescribesThePromptAndItsResult(t *testing.T) {
	t.Parallel()
	in := open(t, Options{}, 100, 30).expect("touch_counter")
	in.keys("3").expectAll("Greet someone", "name: greet", "A greeting in a language; language completes.",
		"language required", "the language to greet in", "who to greet")
	in.keys("enter").argsOpen("Arguments for the prompt greet")
	in.tm.Type("French")
	in.press(layer.FormKeys.Submit).expectAll("description: A greeting in French.", `user: Say "Bonjour" to world.`)
}

// e edits a prompt's arguments on several lines, each its own editor: tab
// goes to the next, enter is a new line, ctrl+s gets the prompt with the
// text as typed; a required argument left empty is named.
func TestPromptArgumentsOnSeveralLines(t *testing.T) {
	t.Parallel()
	in := open(t, Options{}, 100, 30).expect("touch_counter")
	in.keys("3").expect("greet").keys("e").expect("Arguments for the prompt greet")
	in.keys("ctrl+s").expect("language is required")
	in.tm.Type("French")
	in.keys("tab")
	in.tm.Type("Ada")
	in.keys("enter")
	in.tm.Type("and Grace")
	in.keys("ctrl+s").expect("and Grace.")
	wantOnScreen(t, in.screen(), `user: Say "Bonjour" to Ada`, "and Grace.", "description: A greeting in French.")
}
