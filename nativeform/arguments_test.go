package nativeform_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/nativeform"
)

// searchTool is a tool's input schema with a list of strings and a nested
// object of simple fields, properties out of alphabetical order.
const searchTool = `{"type":"object","properties":{
	"query":{"type":"string"},
	"tags":{"type":"array","items":{"type":"string","minLength":2},"description":"Labels to match."},
	"limits":{"type":"object","properties":{
		"max":{"type":"integer","minimum":1},
		"unit":{"type":"string","enum":["s","m"]}},"required":["max"]}},
	"required":["query"]}`

func argumentsOf(t *testing.T, raw string) *formschema.Schema {
	t.Helper()
	s, err := formschema.ParseArguments(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A list is filled by typing items (enter adds each; an item is picked
// with ↑/↓ and removed with delete) and a nested object's fields are
// filled in their group: the arguments sent are the list and the object.
func TestArgumentsFormFillsAListAndAGroup(t *testing.T) {
	t.Parallel()
	req := nativeform.Request{Message: "Arguments for search", Schema: argumentsOf(t, searchTool)}
	d := openForm(t, req, nativeform.Options{Arguments: true}, 100, 40)
	d.expect("Query *", "Tags", "Limits › Max *", "(empty)")
	if got := d.form.Control("tags") + " " + d.form.Control("limits"); got != "list group" {
		t.Errorf("controls %q, want a list and a group", got)
	}
	d.typeText("q").next(1).focused("Tags")
	d.typeText("red").press(tea.KeyEnter).typeText("blue").press(tea.KeyEnter).typeText("green").press(tea.KeyEnter)
	d.expect("• red", "• blue", "• green")
	d.press(tea.KeyUp, tea.KeyDelete, tea.KeyDown) // green picked and removed; back to the input
	d.press(tea.KeyEnter).focused("Limits › Max").typeText("5").press(tea.KeyCtrlS)
	r := d.result()
	got, _ := json.Marshal(r.Content)
	if want := `{"limits":{"max":5},"query":"q","tags":["red","blue"]}`; r.Action != nativeform.Accept || string(got) != want {
		t.Errorf("got %s %s, want accept %s", r.Action, got, want)
	}
}

// A group's field that fails says so beside it, under the group's name,
// and an item that fails says which.
func TestArgumentsFormErrorsInAListAndAGroup(t *testing.T) {
	t.Parallel()
	s := argumentsOf(t, searchTool)
	errs := s.Validate(map[string]any{"query": "q", "tags": []any{"ok", "x"}, "limits": map[string]any{"unit": "m"}})
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	want := []string{"Tags: item 2 must be at least 2 characters", "Limits › Max: is required"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors %q, want %q", got, want)
	}
}

// Plain mode asks for a list one item a line and for a group's fields
// under its heading, and asks again for a group's field that fails.
func TestPlainModeListAndGroup(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	req := nativeform.Request{Server: "s", Connection: "c", Message: "Arguments", Schema: argumentsOf(t, searchTool)}
	// answer; query; tags red, blue; limits: max empty, unit 2 (m); then max again.
	r, err := nativeform.AskPlain(context.Background(), req, nativeform.Options{},
		nativeform.NewLines(strings.NewReader("a\nq\nred\nblue\n\n\n2\n7\n")), &out)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(r.Content)
	if want := `{"limits":{"max":7,"unit":"m"},"query":"q","tags":["red","blue"]}`; r.Action != nativeform.Accept || string(got) != want {
		t.Errorf("got %s %s, want accept %s\n%s", r.Action, got, want, out.String())
	}
	for _, want := range []string{"Limits:", "! Limits › Max: is required", "one item a line"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("plain mode lacks %q:\n%s", want, out.String())
		}
	}
}

// TestArgumentsGoldens draws a tool's arguments form with a list (two
// items, the list focused) and a group, at each size; -update rewrites
// testdata/TestArgumentsGoldens/*.golden.
func TestArgumentsGoldens(t *testing.T) {
	for _, size := range sizes {
		t.Run(size.name, func(t *testing.T) {
			req := nativeform.Request{Message: "Arguments for search", Schema: argumentsOf(t, searchTool)}
			d := openForm(t, req, nativeform.Options{Arguments: true}, size.w, size.h)
			d.expect("Query *").typeText("q").next(1).focused("Tags").typeText("red").press(tea.KeyEnter).typeText("blue").press(tea.KeyEnter)
			golden.RequireEqual(t, []byte(d.expect("• blue").view()))
		})
	}
}
