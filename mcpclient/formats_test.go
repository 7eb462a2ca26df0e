package mcpclient_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui"
)

// An answer that is no email, URI, date or date-time is refused before it
// is sent, with the field named, in both eras: the form (its plain prompts
// here) says so and asks again, and an answers file's entry is cancelled
// with the reason on stderr.
func TestFormatsRefusedBeforeSending(t *testing.T) {
	formats := []struct {
		format, label, bad, good, want string
	}{
		{"email", "Contact", "ada.example.com", "ada@example.com", "Contact: must be a valid email address"},
		{"uri", "Home page", "example.com/ada", "https://example.com/ada", "Home page: must be a valid URI (for example https://example.com)"},
		{"date", "Born", "1815-13-10", "1815-12-10", "Born: must be a date as YYYY-MM-DD"},
		{"date-time", "Seen", "2026-01-02 03:04", "2026-01-02T03:04:05Z", "Seen: must be a date and time as YYYY-MM-DDTHH:MM:SSZ"},
	}
	for _, protocol := range []string{"legacy", "modern"} {
		for _, tc := range formats {
			t.Run(protocol+"/"+tc.format, func(t *testing.T) {
				t.Parallel()
				server := askingServer(json.RawMessage(`{"type":"object","properties":{"f":{"type":"string","format":"` + tc.format + `","title":"` + tc.label + `"}},"required":["f"]}`))

				var out strings.Builder
				form := &tui.FormAsker{Plain: true, In: strings.NewReader("a\n" + tc.bad + "\n" + tc.good + "\n"), Out: &out}
				sent := askWith(t, protocol, server, form, 1)
				if !strings.Contains(out.String(), "! "+tc.want) {
					t.Errorf("the form does not say %q:\n%s", tc.want, out.String())
				}
				if want := []map[string]any{{"f": tc.good}}; !reflect.DeepEqual(sent, want) {
					t.Errorf("form: sent %v, want %v", sent, want)
				}

				var stderr syncBuffer
				file := &mcpclient.HeadlessAsker{Answers: mustAnswers(t, `[{"action":"accept","content":{"f":"`+tc.bad+`"}}]`), Stderr: &stderr}
				if sent := askWith(t, protocol, server, file, 1); len(sent) != 0 {
					t.Errorf("answers file: sent %v, want nothing accepted", sent)
				}
				if !strings.Contains(stderr.String(), tc.want) {
					t.Errorf("answers file: stderr does not say %q:\n%s", tc.want, stderr.String())
				}
			})
		}
	}
}
