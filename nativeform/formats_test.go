package nativeform_test

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/nativeform"
)

// A string field's format is the validator's to check: an answer that is
// no email, URI, date or date-time is refused on submit, the message on
// the field's own line, and nothing is sent.
func TestFormatsRefusedInTheForm(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		format, label, bad, want string
	}{
		{"email", "Contact", "ada.example.com", "must be a valid email address"},
		{"uri", "Home page", "example.com/ada", "must be a valid URI (for example https://example.com)"},
		{"date", "Born", "1815-13-10", "must be a date as YYYY-MM-DD"},
		{"date-time", "Seen", "2026-02-30", "must be a date and time as YYYY-MM-DDTHH:MM:SSZ"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			t.Parallel()
			schema := `{"type":"object","properties":{"f":{"type":"string","format":"` + tc.format + `","title":"` + tc.label + `"}},"required":["f"]}`
			d := openForm(t, request(schemaOf(t, schema), "Who?"), nativeform.Options{}, 100, 40)
			d.expect(tc.label).typeText(tc.bad).press(tea.KeyCtrlS).expect(tc.want)
			if _, settled := d.form.Result(); settled {
				t.Fatalf("an answer that is no %s was sent", tc.format)
			}
			for line := range strings.Lines(d.view()) {
				if strings.Contains(line, tc.label) {
					if !strings.Contains(line, "✗ "+tc.want) {
						t.Errorf("the field's line %q does not say %q", strings.TrimSpace(line), tc.want)
					}
					return
				}
			}
			t.Errorf("no line names the field %q", tc.label)
		})
	}
}
