package nativeform_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/nativeform"
)

// fastMCPBooking is FastMCP's schema for a model with an empty date
// default and a date default that is no date (testdata/fastmcp).
func fastMCPBooking(t *testing.T) nativeform.Request {
	t.Helper()
	b, err := os.ReadFile("../testdata/fastmcp/booking.json")
	if err != nil {
		t.Fatal(err)
	}
	return request(schemaOf(t, string(b)), "Book it")
}

// The form sends the defaults it shows and nothing it shows empty: the
// empty date default is left out, the date default that is no date is not
// pre-filled (the field says why), and a submit with the name alone is
// accepted with the defaults that fit.
func TestFormSendsNoDefaultThatFailsItsSchema(t *testing.T) {
	t.Parallel()
	d := openForm(t, fastMCPBooking(t), nativeform.Options{}, 100, 40)
	d.expect(`the server's default "tomorrow" is not used`).typeText("Ada").press(tea.KeyCtrlS)
	r := d.result()
	got, _ := json.Marshal(r.Content)
	if want := `{"includeTests":true,"name":"Ada","nights":1}`; r.Action != nativeform.Accept || string(got) != want {
		t.Errorf("got %s %s, want accept %s", r.Action, got, want)
	}
}

// Plain mode alike: empty lines keep what is shown, and what is shown
// empty is not sent.
func TestPlainModeSendsNoDefaultThatFailsItsSchema(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	r, err := nativeform.AskPlain(context.Background(), fastMCPBooking(t), nativeform.Options{},
		nativeform.NewLines(strings.NewReader("a\nAda\n\n\n\n\n")), &out)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(r.Content)
	if want := `{"includeTests":true,"name":"Ada","nights":1}`; r.Action != nativeform.Accept || string(got) != want {
		t.Errorf("got %s %s, want accept %s\n%s", r.Action, got, want, out.String())
	}
	if !strings.Contains(out.String(), `the server's default "tomorrow" is not used`) {
		t.Errorf("plain mode does not say why End is empty:\n%s", out.String())
	}
}
