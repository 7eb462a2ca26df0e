package e2e

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// --answer --app-host: the TypeScript SDK's client, advertising no
// elicitation, calls the fixture's tool whose question names an app; the
// proxy claims app-rendered elicitation for it, renders the question in
// the fixture's app in Chromium, and the host gets the call completed
// with what was chosen in the app. An app that cannot answer, cannot be
// read, or whose tab nobody opens (--no-browser) leaves the question to
// the answers file.
func TestProxyAnswersInTheServersApp(t *testing.T) {
	t.Parallel()
	// The answers file chooses B; the app is clicked on A: the host's
	// result says which answered.
	answers := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(answers, []byte(`[{"match":{"message":"Choose option"},"action":"accept","content":{"choice":"option-b"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	proxy := func(o *opener) []string {
		return []string{mcpeekBin, "proxy", "--answer", "--app-host", "--open-with", o.flag(), "--app-init-timeout", "10s", "--answers", answers, "--", mcpeekBin, "fixture"}
	}
	t.Run("the app answers", func(t *testing.T) {
		t.Parallel()
		browser := chromium(t)
		o := newOpener(t)
		done := startTSBareHost(t, "choose_option", "{}", proxy(o)...)
		run := chooseInApp(t, browser, o, done)
		if !strings.Contains(run.stderr, "advertises app-rendered elicitation") || !strings.Contains(run.stderr, "itself (by the server's app (--app-host)): accept") {
			t.Errorf("the proxy did not say the app answered:\n%s", run.stderr)
		}
		bridgeText(t, run.page, "You can close this tab")
	})
	t.Run("a failing app", func(t *testing.T) {
		t.Parallel()
		browser := chromium(t)
		o := newOpener(t)
		done := startTSBareHost(t, "app_no_elicitation", "{}", proxy(o)...)
		tab(t, browser, o.next(t))
		run := <-done
		if run.err != nil || !strings.Contains(run.stdout, "accept: option-b") {
			t.Fatalf("the host got %s (%v)\nstderr: %s", run.stdout, run.err, run.stderr)
		}
		if !strings.Contains(run.stderr, "the server's app (--app-host) could not answer") || !strings.Contains(run.stderr, "the app did not declare elicitation support") ||
			!strings.Contains(run.stderr, "itself (by --answers "+answers+"): accept") {
			t.Errorf("the proxy did not say why the answers file answered:\n%s", run.stderr)
		}
	})
	t.Run("no browser comes", func(t *testing.T) {
		t.Parallel()
		words := []string{mcpeekBin, "proxy", "--answer", "--app-host", "--no-browser", "--app-timeout", "1s", "--answers", answers, "--", mcpeekBin, "fixture"}
		run := <-startTSBareHost(t, "choose_option", "{}", words...)
		if run.err != nil || !strings.Contains(run.stdout, "accept: option-b") {
			t.Fatalf("the host got %s (%v)\nstderr: %s", run.stdout, run.err, run.stderr)
		}
		if !strings.Contains(run.stderr, "the URL to open (it holds a one-time token) is in ") || !strings.Contains(run.stderr, "the app did not initialize in time: nobody opened the tab") {
			t.Errorf("the proxy did not say where the URL to open is, or why the answers file answered:\n%s", run.stderr)
		}
		// The proxy's stderr is the host's log: the tokenized URL stays out,
		// in a file that goes with the proxy.
		if strings.Contains(run.stderr, "http://127.0.0.1:") || strings.Contains(run.stderr, "http://localhost:") {
			t.Errorf("the app's URL, which holds a token, is in the host's log:\n%s", run.stderr)
		}
		if m := regexp.MustCompile(`is in (\S+)`).FindStringSubmatch(run.stderr); m != nil {
			if _, err := os.Stat(m[1]); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the file holding the app's URL outlived the proxy: %s (%v)", m[1], err)
			}
		}
	})
	t.Run("an app that cannot be read", func(t *testing.T) {
		t.Parallel()
		o := newOpener(t)
		run := <-startTSBareHost(t, "app_missing_resource", "{}", proxy(o)...)
		if run.err != nil || !strings.Contains(run.stdout, "accept: option-b") {
			t.Fatalf("the host got %s (%v)\nstderr: %s", run.stdout, run.err, run.stderr)
		}
		if !strings.Contains(run.stderr, "the app resource could not be read from the server") {
			t.Errorf("the proxy did not say why the answers file answered:\n%s", run.stderr)
		}
	})
}

// appAnswer is a host's run whose question was answered in the app, and
// the app's tab.
type appAnswer struct {
	hostRun
	page context.Context
}

// chooseInApp opens the tab the proxy opens next, chooses option A in the
// fixture's app there, and waits for the host's run: it must have got
// the call completed with that choice.
func chooseInApp(t *testing.T, browser context.Context, o *opener, done <-chan hostRun) appAnswer {
	t.Helper()
	page := tab(t, browser, o.next(t))
	bridgeText(t, page, "Answer in the app")
	click(t, page, "option-a")
	run := <-done
	if run.err != nil || !strings.Contains(run.stdout, "accept: option-a") || strings.Contains(run.stdout, `"isError":true`) {
		t.Fatalf("the host got %s (%v)\nstderr: %s", run.stdout, run.err, run.stderr)
	}
	return appAnswer{run, page}
}

// Both eras, over stdio and --listen, and across them (a stdio host in
// front of a URL server, a --listen host in front of a command):
// mcpeek call plays a host that would decline (--answer=always answers
// for it all the same); the proxy adds app-rendered elicitation to what
// it advertises, reads the app in the server's session or with the
// request's capabilities, and the app's choice completes the call.
func TestProxyAnswersInTheServersAppBothEras(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ host, server, era string }{
		{"stdio", "command", "modern"}, {"listen", "url", "legacy"}, {"listen", "url", "modern"},
		{"stdio", "url", "modern"}, {"listen", "command", "legacy"},
	} {
		t.Run(c.host+"-to-"+c.server+"/"+c.era, func(t *testing.T) {
			t.Parallel()
			browser := chromium(t)
			o := newOpener(t)
			flags := []string{"--answer=always", "--app-host", "--open-with", o.flag(), "--app-init-timeout", "10s"}
			upstream := []string{mcpeekBin, "fixture"}
			if c.server == "url" {
				upstream = []string{fixtureHTTP(t, c.era)}
			}
			server := append(append(append([]string{"--", mcpeekBin, "proxy"}, flags...), "--"), upstream...)
			switch {
			case c.host == "listen" && c.server == "url":
				server = []string{startListeningProxy(t, upstream[0], flags...)}
			case c.host == "listen":
				server = []string{startListeningCommandProxy(t, upstream, flags...)}
			}
			done := make(chan result, 1)
			go func() {
				args := []string{"call", "choose_option", "--protocol", c.era, "--on-elicit", "decline", "--timeout", "60s"}
				done <- inProcess(context.Background(), append(args, server...))
			}()
			page := tab(t, browser, o.next(t))
			bridgeText(t, page, "Answer in the app")
			click(t, page, "option-a")
			r := <-done
			if r.code != exitOK || !strings.Contains(r.stdout, "accept: option-a") {
				t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// --app-host renders the questions the proxy answers: without --answer
// it is a mistake.
func TestProxyAppHostNeedsAnswer(t *testing.T) {
	t.Parallel()
	if r := mcpeek(t, "proxy", "--app-host", "--", mcpeekBin, "fixture"); r.code != exitUsage || !strings.Contains(r.stderr, "give --answer too") {
		t.Errorf("--app-host without --answer: exit %d: %s", r.code, r.stderr)
	}
}
