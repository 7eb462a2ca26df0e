package doctor

import (
	"strings"
	"testing"
)

// TestFirstEventDataSkipsEmptyEvents: the answer in an event stream is the
// first event with data; an event with none, or with an empty data: (the
// priming event of a server with resumability), is passed over, as a
// client passes it over.
func TestFirstEventDataSkipsEmptyEvents(t *testing.T) {
	answer := `{"jsonrpc":"2.0","id":0,"result":{}}`
	for _, tc := range []struct{ name, stream, want string }{
		{"plain", "event: message\ndata: " + answer + "\n\n", answer},
		{"priming event first", "id: 1_0\ndata: \n\nevent: message\nid: 1_1\ndata: " + answer + "\n\n", answer},
		{"priming data without a colon", "id: 1\ndata\n\ndata: " + answer + "\n\n", answer},
		{"comment and retry first", ": keep-alive\nretry: 1000\n\ndata: " + answer + "\n\n", answer},
		{"CRLF lines", "id: 1\r\ndata:\r\n\r\ndata: " + answer + "\r\n\r\n", answer},
		{"data on two lines", "data: {\"a\":\ndata: 1}\n\n", "{\"a\":\n1}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(firstEventData(strings.NewReader(tc.stream))); got != tc.want {
				t.Errorf("firstEventData = %q, want %q", got, tc.want)
			}
		})
	}
	if err := jsonRPCAnswer(strings.NewReader("id: 7\ndata: \n\ndata: "+answer+"\n\n"), "text/event-stream", nil); err != nil {
		t.Errorf("a primed stream's answer: %v", err)
	}
}

// TestDoctorCounts: the doctor's counts read as English: one line, two
// lines.
func TestDoctorCounts(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{stderrNote(0), ""},
		{stderrNote(1), "; 1 line on stderr (where logs belong)"},
		{stderrNote(2), "; 2 lines on stderr (where logs belong)"},
		{countListed(map[string]any{"resources": []any{1}, "resourceTemplates": []any{1, 2}}), "1 resource and 2 templates"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}
