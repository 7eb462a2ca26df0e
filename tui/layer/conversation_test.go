package layer

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func urlRequest(url string) *mcpclient.NativeRequest {
	return &mcpclient.NativeRequest{Key: "e-1", Server: &mcp.Implementation{Name: "srv"}, Connection: "test",
		Params: &mcp.ElicitParams{Mode: "url", Message: "Sign in.", URL: url}}
}

func ctrl(name string) tea.KeyMsg {
	switch name {
	case "ctrl+n":
		return tea.KeyMsg{Type: tea.KeyCtrlN}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "ctrl+s":
		return tea.KeyMsg{Type: tea.KeyCtrlS}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	}
	return keyOf(name)
}

// fixed is a clock that stands at *t.
func fixed(t *time.Time) func() time.Time { return func() time.Time { return *t } }

// The URL consent card ignores keys in its grace period, then answers
// the request: o accepts and opens the page (or, when the browser does
// not open it, shows it to copy), d declines, esc cancels; a poll past
// the timeout cancels it.
func TestURLCardAnswers(t *testing.T) {
	t.Parallel()
	now := time.Unix(1000, 0)
	var opened []string
	req := urlRequest("https://example.com/in")
	l := NewURLCard(common(), req, func(u string) error { opened = append(opened, u); return errors.New("over SSH") }, time.Minute, func() int { return 1 })
	l.Now = fixed(&now)
	l.Shown(now)
	if a := l.Update(keyOf("o")); a != nil {
		t.Errorf("o within the grace period: %#v, want nothing", a)
	}
	now = now.Add(URLGrace)
	a, ok := l.Update(keyOf("o")).(Batch)
	if !ok || len(a) != 2 {
		t.Fatalf("o: %#v, want the answer and the opening", a)
	}
	if ans, ok := a[0].(AnswerElicitation); !ok || ans.Req != req || ans.Result.Action != "accept" {
		t.Errorf("o answers %#v, want accept", a[0])
	}
	msg := a[1].(Cmd).Cmd()
	if shown, ok := msg.(OpenMsg); !ok || len(opened) != 1 || !strings.Contains(ansi.Strip(shown.Layer.View(80, 20)), "The browser did not open it: over SSH") {
		t.Errorf("a page the browser did not open: %#v, opened %q", msg, opened)
	}
	for k, want := range map[string]string{"d": "decline", "esc": "cancel"} {
		if ans, ok := l.Update(ctrl(k)).(AnswerElicitation); !ok || ans.Result.Action != want {
			t.Errorf("%s: %#v, want %s", k, ans, want)
		}
	}
	if a := l.Update(Poll{}); a != nil {
		t.Errorf("a poll within the timeout: %#v", a)
	}
	now = now.Add(time.Minute)
	if ans, ok := l.Update(Poll{}).(AnswerElicitation); !ok || ans.Result.Action != "cancel" {
		t.Errorf("a poll past the timeout: %#v, want cancel", ans)
	}
}

// A URL mcpeek does not open is not accepted on o: the card says why, and
// offers no o.
func TestURLCardRefusesOtherSchemes(t *testing.T) {
	t.Parallel()
	l := NewURLCard(common(), urlRequest("file:///etc/passwd"), nil, 0, func() int { return 1 })
	l.Shown(time.Now().Add(-time.Second))
	if st, ok := l.Update(keyOf("o")).(Status); !ok || !st.Err || !strings.HasPrefix(st.Text, "not opened: ") {
		t.Errorf("o: %#v, want a status saying it was not opened", st)
	}
	if v := ansi.Strip(l.View(80, 20)); strings.Contains(v, "open it in the browser") || !strings.Contains(v, "this is not a URL mcpeek can open") {
		t.Errorf("the card:\n%s", v)
	}
	if f := ansi.Strip(l.Footer(80)); strings.Contains(f, "o open") {
		t.Errorf("footer %q offers o", f)
	}
}

// ctrl+n shows the next request only when another waits; the footer
// counts them; ctrl+c asks to quit.
func TestHeadLayersGoRoundTheQueue(t *testing.T) {
	t.Parallel()
	n := 1
	schema, err := formschema.Parse(json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	req := &mcpclient.NativeRequest{Key: "e-2", Server: &mcp.Implementation{Name: "srv"}, Params: &mcp.ElicitParams{Message: "Name?"}, Schema: schema}
	form := NewElicitForm(common(), req, nativeform.New(nativeform.Request{Message: "Name?", Schema: schema}, nativeform.Options{}), func() int { return n })
	form.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	for _, l := range []Head{form, NewURLCard(common(), urlRequest("https://example.com/in"), nil, 0, func() int { return n })} {
		n = 1
		if _, ok := l.Update(ctrl("ctrl+n")).(NextInQueue); ok {
			t.Errorf("%T: ctrl+n with one request waiting", l)
		}
		if f := l.(Footer).Footer(80); strings.Contains(f, "pending") {
			t.Errorf("%T: footer %q counts one request", l, f)
		}
		n = 2
		if a := l.Update(ctrl("ctrl+n")); a != (NextInQueue{}) {
			t.Errorf("%T: ctrl+n: %#v, want NextInQueue", l, a)
		}
		if f := ansi.Strip(l.(Footer).Footer(80)); !strings.Contains(f, "1 of 2 pending") {
			t.Errorf("%T: footer %q", l, f)
		}
		if a := l.Update(ctrl("ctrl+c")); a != (AskQuit{}) {
			t.Errorf("%T: ctrl+c: %#v, want AskQuit", l, a)
		}
	}
}

// An app's link card answers with the person's consent, after its grace
// period, and counts the links waiting.
func TestLinkCardAnswers(t *testing.T) {
	t.Parallel()
	now := time.Unix(1000, 0)
	req := &LinkRequest{App: "Shop", Session: "t-1", URL: "https://example.com/buy"}
	l := NewLinkCard(common(), req, func() int { return 2 })
	l.Now = fixed(&now)
	l.Shown(now)
	if a := l.Update(keyOf("o")); a != nil {
		t.Errorf("o within the grace period: %#v", a)
	}
	now = now.Add(URLGrace)
	if a := l.Update(keyOf("o")); a != (AnswerLink{req, true}) {
		t.Errorf("o: %#v, want consent", a)
	}
	if a := l.Update(ctrl("esc")); a != (AnswerLink{req, false}) {
		t.Errorf("esc: %#v, want a refusal", a)
	}
	if v := ansi.Strip(l.View(80, 20)); !strings.Contains(v, "The app of Shop asks you to open a page") || !strings.Contains(v, "session t-1") {
		t.Errorf("the card:\n%s", v)
	}
	if f := ansi.Strip(l.Footer(80)); !strings.HasPrefix(f, "1 of 2 links") {
		t.Errorf("footer %q", f)
	}
}

// The page the browser did not open: y copies it, esc closes.
func TestURLShownCopiesAndCloses(t *testing.T) {
	t.Parallel()
	l := NewURLShown(common(), "https://example.com/x", "no browser")
	if a := l.Update(keyOf("y")); a != (Copy{"https://example.com/x", "the URL"}) {
		t.Errorf("y: %#v", a)
	}
	if a := l.Update(ctrl("esc")); a != (Close{}) {
		t.Errorf("esc: %#v", a)
	}
}

// The arguments form closes once it settles: submitted arguments go on
// to what asked for them; and with a completer it asks for the focused
// field's completions once the text stands still, showing only an answer
// for the text still there.
func TestArgsFormSubmitsAndCompletes(t *testing.T) {
	t.Parallel()
	schema, err := formschema.ParseArguments(map[string]any{"type": "object", "properties": map[string]any{"item": map[string]any{"type": "string"}}})
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	complete := func(arg mcp.CompleteParamsArgument, _ map[string]string) (*mcpclient.Completion, error) {
		asked = append(asked, arg.Name+"="+arg.Value)
		return &mcpclient.Completion{Values: []string{arg.Value + "1", arg.Value + "2"}}, nil
	}
	var got map[string]any
	l := NewArgsForm(common(), "Arguments for pick", schema, nativeform.Options{Grace: time.Nanosecond}, complete, func(args map[string]any) tea.Cmd { got = args; return nil })
	a := l.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	due := dueOf(t, a)
	if due == nil {
		t.Fatal("opening the form asked for no completion of its first field")
	}
	if due.To() != l {
		t.Errorf("the completion is for %v", due.To())
	}
	done, ok := l.Update(*due).(Cmd)
	if !ok {
		t.Fatalf("the due completion asks nothing")
	}
	l.Update(done.Cmd())
	if list, _ := l.Form().Suggested("item"); len(asked) != 1 || asked[0] != "item=" || len(list.Values) != 2 {
		t.Errorf("asked %q, suggested %+v", asked, list)
	}
	l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	if list, _ := l.Form().Suggested("item"); len(list.Values) != 0 {
		t.Errorf("the suggestions for an older text still show: %+v", list)
	}
	if a := l.Update(*due); a != nil {
		t.Errorf("a completion for an older text was asked: %#v", a)
	}
	l.Update(ctrl("ctrl+s"))
	if r, ok := l.Form().Result(); !ok || r.Action != nativeform.Accept {
		t.Fatalf("ctrl+s: the form settled %v on %+v", ok, r)
	}
	b, ok := l.Update(nativeform.DoneMsg{}).(Batch)
	if !ok || len(b) != 2 || b[0] != (Close{}) {
		t.Fatalf("settled: %#v, want Close and the arguments", b)
	}
	given := b[1].(ArgsGiven)
	given.Done(given.Args)
	if got["item"] != "x" {
		t.Errorf("submitted %v, want item x", got)
	}
}

// dueOf is the completion a form's action schedules, if any.
func dueOf(t *testing.T, a Action) *completeDue {
	t.Helper()
	for _, each := range flatten(a) {
		if c, ok := each.(Cmd); ok {
			if due, ok := c.Cmd().(completeDue); ok {
				return &due
			}
		}
	}
	return nil
}

func flatten(a Action) []Action {
	if b, ok := a.(Batch); ok {
		var out []Action
		for _, each := range b {
			out = append(out, flatten(each)...)
		}
		return out
	}
	return []Action{a}
}

// The JSON editor calls the tool only with a JSON object, and says why
// otherwise.
func TestJSONEditorCallsWithAnObject(t *testing.T) {
	t.Parallel()
	tool := &mcp.Tool{Name: "deep"}
	l := NewJSONEditor(common(), JSONArgs{Tool: tool, Text: "[1]", AsTask: true})
	l.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	if a := l.Update(ctrl("ctrl+s")); a != nil {
		t.Fatalf("ctrl+s on an array: %#v", a)
	}
	if v := ansi.Strip(l.View(80, 20)); !strings.Contains(v, "the arguments must be a JSON object") {
		t.Errorf("the editor does not say why:\n%s", v)
	}
	l.Editor().SetValue(`{"a":1}`)
	b, ok := l.Update(ctrl("ctrl+s")).(Batch)
	if !ok || len(b) != 2 || b[0] != (Close{}) {
		t.Fatalf("ctrl+s: %#v", b)
	}
	if call := b[1].(CallTool); call.Tool != tool || string(call.Args) != `{"a":1}` || !call.AsTask {
		t.Errorf("call %#v", call)
	}
}

// The login card takes the URL from whichever line gives it, answers
// the authorizer's wait with the address sent (or holds it for the next
// wait), shows why it was refused, and ends when the wait it answered
// ends, not an earlier one.
func TestLoginCardSteps(t *testing.T) {
	t.Parallel()
	l := NewLoginCard(common(), "https://mcp.example.com/mcp")
	l.Update(AuthShown{"authorizing in your browser; waiting for it to come back"})
	l.Update(AuthShown{"if it did not open, open this URL: https://as.example.com/authorize?state=s1"})
	if l.URL() != "https://as.example.com/authorize?state=s1" {
		t.Errorf("URL %q", l.URL())
	}
	if !l.Restarts(AuthOpenPrefix+"https://as.example.com/authorize?state=s2") || l.Restarts("waiting") {
		t.Error("Restarts tells a new login wrongly")
	}
	if a := l.Update(keyOf("y")); a != (Copy{l.URL(), "the URL"}) {
		t.Errorf("y: %#v", a)
	}
	l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("http://127.0.0.1:1/cb?x=1"), Paste: true})
	if a := l.Update(ctrl("enter")); a != nil {
		t.Errorf("enter with no wait: %#v, want the address held", a)
	}
	p := &PasteWait{Reply: make(chan string, 1)}
	c, ok := l.Update(AuthPaste{p}).(Cmd)
	if !ok {
		t.Fatal("the held address was not sent to the wait")
	}
	c.Cmd()
	if got := <-p.Reply; got != "http://127.0.0.1:1/cb?x=1" || !strings.Contains(l.View(80, 30), "checking the address") {
		t.Errorf("sent %q", got)
	}
	l.Update(AuthShown{"that is not the address"})
	if v := ansi.Strip(l.View(80, 30)); !strings.Contains(v, "refused: that is not the address") {
		t.Errorf("the refusal is not shown:\n%s", v)
	}
	if a := l.Update(AuthPasteEnded{&PasteWait{}}); a != nil {
		t.Errorf("an earlier wait's end: %#v", a)
	}
	if a := l.Update(AuthPasteEnded{p}); !actionsHave(a, LoginEnded{}) {
		t.Errorf("the wait's end: %#v, want LoginEnded", a)
	}
	if a := l.Update(ctrl("esc")); a != (Close{}) {
		t.Errorf("esc: %#v, want the card hidden", a)
	}
}

func actionsHave(a, want Action) bool {
	for _, each := range flatten(a) {
		if each == want {
			return true
		}
	}
	return false
}

// The one way the inspector opens a page refuses anything but http(s),
// without calling the opener.
func TestOpenWebRefusesOtherSchemes(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"file:///etc/passwd", "javascript:alert(1)", "vscode://x", "data:text/html,x"} {
		called := false
		if err := OpenWeb(func(string) error { called = true; return nil }, raw); err == nil || called {
			t.Errorf("%s: err %v, opener called %v", raw, err, called)
		}
	}
	var got string
	if err := OpenWeb(func(u string) error { got = u; return nil }, "https://example.com/x"); err != nil || got != "https://example.com/x" {
		t.Errorf("an https page: err %v, opened %q", err, got)
	}
}
