package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// hopShown is a page that notes, on the console, the moment its first
// script runs.
const hopShown = `<!doctype html><meta charset="utf-8"><script>console.log("mcpeek-bench shown " + (performance.timeOrigin + performance.now()))</script>`

// hopFramed is a page with a frame of another site (as the bridge page's
// sandbox frame): it notes the moment the frame's first script runs.
const hopFramed = `<!doctype html><meta charset="utf-8"><script>addEventListener("message", function (e) { console.log("mcpeek-bench shown " + e.data) })</script><iframe src="%s"></iframe>`

// hopFrame is that frame.
const hopFrame = `<!doctype html><meta charset="utf-8"><script>parent.postMessage(performance.timeOrigin + performance.now(), "*")</script>`

// BenchmarkLaunchHop isolates what a launch page's hop costs a new tab,
// with nothing of mcpeek's: from the moment the tab is asked for to the
// first script of a blank page on 127.0.0.1 (direct), of a local file page
// (file), and of the same web page reached through a file page that leaves
// by script in its head (replace) or by a refresh (refresh). The framed
// cases time the first script of a frame of another site (localhost, as
// the sandbox page) in a page on 127.0.0.1 (framed-direct), in that page
// reached from a file page (framed-replace; framed-warm, whose file page
// first starts a blank frame of the frame's site, to have its process
// ready), and in a file page itself (framed-file). Each runs in a Chromium
// without site isolation (as BenchmarkAppFloor) and with it (as a person's
// browser), the cases interleaved, each first in turn.
//
//	go test -run '^$' -bench BenchmarkLaunchHop -benchtime 12x -count 3 ./e2e
func BenchmarkLaunchHop(b *testing.B) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	listeners := []net.Listener{ln}
	if ln6, err := net.Listen("tcp6", "[::1]:"+port); err == nil {
		listeners = append(listeners, ln6)
	}
	web, other := "http://127.0.0.1:"+port+"/", "http://localhost:"+port
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		switch r.URL.Path {
		case "/framed":
			fmt.Fprintf(w, hopFramed, other+"/frame")
		case "/frame":
			_, _ = w.Write([]byte(hopFrame))
		case "/blank":
		default:
			_, _ = w.Write([]byte(hopShown))
		}
	})}
	for _, l := range listeners {
		go func() { _ = srv.Serve(l) }()
	}
	b.Cleanup(func() { _ = srv.Close() })
	framed := web + "framed"
	dir := b.TempDir()
	page := func(name, html string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(html), 0o600); err != nil {
			b.Fatal(err)
		}
		return "file://" + path
	}
	urls := []struct{ name, url string }{
		{"direct", web},
		{"file", page("file.html", hopShown)},
		{"replace", page("replace.html", `<!doctype html><meta charset="utf-8"><script>location.replace("`+web+`")</script>`)},
		{"refresh", page("refresh.html", `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=`+web+`">`)},
		{"framed-direct", framed},
		{"framed-replace", page("framed-replace.html", `<!doctype html><meta charset="utf-8"><script>location.replace("`+framed+`")</script>`)},
		{"framed-warm", page("framed-warm.html", `<!doctype html><meta charset="utf-8"><iframe hidden src="`+other+`/blank"></iframe><script>location.replace("`+framed+`")</script>`)},
		{"framed-file", page("framed-file.html", fmt.Sprintf(hopFramed, other+"/frame"))},
	}
	for _, mode := range []struct {
		name    string
		browser func(testing.TB) context.Context
	}{{"noisolation", chromium}, {"isolation", isolatedChromium}} {
		b.Run(mode.name, func(b *testing.B) {
			browser := mode.browser(b)
			open := func(u string) float64 {
				ctx, cancel, shown, err := probedTab(browser, "shown")
				if err != nil {
					b.Fatal(err)
				}
				defer cancel()
				t0 := epochMs(time.Now())
				go func() { _ = chromedp.Do(ctx, chromedp.Navigate(u)) }()
				return awaitQuestion(b, shown, u) - t0
			}
			for _, u := range urls { // warm up
				open(u.url)
			}
			times := map[string][]float64{}
			round := 0
			for b.Loop() {
				for i := range urls {
					u := urls[(round+i)%len(urls)]
					times[u.name] = append(times[u.name], open(u.url))
				}
				round++
			}
			for _, u := range urls {
				b.ReportMetric(percentile(times[u.name], 50), "ms-"+u.name+"-p50")
			}
		})
	}
}
