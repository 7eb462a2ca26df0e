package widget

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// TestColourJSON: with colour, keys, strings and literals each get their
// colour and the text reads the same once the colour is stripped; without
// (NO_COLOR), nothing is added; text that is not JSON is left alone.
func TestColourJSON(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	const doc = "{\n  \"name\": \"a \\\"quoted\\\" b\",\n  \"n\": -1.5e3,\n  \"ok\": true,\n  \"none\": null,\n  \"list\": [\"x\", 2]\n}"
	s := NewStyles()
	got := s.ColourJSON(doc)
	if ansi.Strip(got) != doc {
		t.Fatalf("the text changed:\n%s", ansi.Strip(got))
	}
	for _, want := range []string{
		s.JSON.Key.Render(`"name"`), s.JSON.Str.Render(`"a \"quoted\" b"`), s.JSON.Lit.Render("-1.5e3"),
		s.JSON.Lit.Render("true"), s.JSON.Lit.Render("null"), s.JSON.Str.Render(`"x"`), s.JSON.Lit.Render("2"),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("coloured JSON lacks %q:\n%q", want, got)
		}
	}
	if prose := `He said "hi": fine`; s.ColourJSON(prose) != prose {
		t.Error("text that is not JSON was coloured")
	}
	t.Setenv("NO_COLOR", "1")
	if got := NewStyles().ColourJSON(doc); got != doc {
		t.Errorf("NO_COLOR: %q, want the text as it is", got)
	}
}
