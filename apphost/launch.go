package apphost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/pkg/browser"
)

// SystemBrowser opens a URL (a launch URL or a launch file's, see
// [Options.Launch]) in the person's browser, quietly. It declines
// (so the URL is shown instead) with noBrowser, or over SSH, where a
// browser would open on the wrong machine.
func SystemBrowser(noBrowser bool) func(url string) error {
	return func(url string) error {
		switch {
		case noBrowser:
			return errors.New("--no-browser")
		case os.Getenv("SSH_CONNECTION") != "":
			return errors.New("connected over SSH")
		}
		quietBrowser.Do(func() { browser.Stdout, browser.Stderr = io.Discard, io.Discard })
		return browser.OpenURL(url)
	}
}

// WebOnly is open for web pages alone: it opens an http(s) URL
// ([mcpclient.WebURL]) and refuses anything else without calling open.
// It wraps every opener of a page a server or an app names; launch URLs
// and launch files (file: URLs mcpeek writes itself) go to the opener
// unwrapped.
func WebOnly(open func(url string) error) func(url string) error {
	return func(raw string) error {
		u, err := mcpclient.WebURL(raw)
		if err != nil {
			return fmt.Errorf("not opened: %w", err)
		}
		return open(u.String())
	}
}

// quietBrowser silences pkg/browser's output once: its writers are globals.
var quietBrowser sync.Once

// OpenWith runs a shell command with the URL (a launch URL or a launch
// file's, see [Options.Launch]) as its last argument, instead of the system browser
// (--open-with).
func OpenWith(command string) func(url string) error {
	return func(url string) error {
		cmd := exec.Command("sh", "-c", command+` "$1"`, "mcpeek-open", url)
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Start(); err != nil {
			return err
		}
		go func() { _ = cmd.Wait() }()
		return nil
	}
}

// writeLaunchFile writes a page that sends the browser on to target, in a
// folder only this user can read, and returns its path. The file holds the
// session's token; it is removed as soon as the tab connects, or when the
// session ends.
func (h *Host) writeLaunchFile(key, target string) (string, error) {
	h.launchMu.Lock()
	defer h.launchMu.Unlock()
	if h.launchDir == "-" {
		return "", errHostClosed
	}
	if h.launchDir == "" {
		dir, err := newLaunchDir()
		if err != nil {
			return "", err
		}
		h.launchDir = dir
	}
	return writeLaunchPage(filepath.Join(h.launchDir, key+".html"), target)
}

// newLaunchDir makes a folder only this user can read, for launch pages, in
// the temporary folder ($TMPDIR, else /tmp, whose sticky bit keeps others
// from replacing it). A sandboxed browser (Snap, Flatpak) may not read it:
// nor could it the user's runtime or cache folder, so whoever opens a
// launch page also shows the person the URL it leads to, or a way to it.
func newLaunchDir() (string, error) {
	dir, err := os.MkdirTemp("", "mcpeek-launch-")
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// writeLaunchPage writes, at path (a new file in a folder only this user
// can read), a page that sends the browser on to target, and returns path.
func writeLaunchPage(path, target string) (string, error) {
	// The script leaves at once, before anything renders (a refresh waits
	// for the page to load, and then a turn more); the refresh is there for
	// a browser that runs no script in local pages. json.Marshal escapes
	// <, > and &, so the target cannot end the script element.
	quoted, err := json.Marshal(target)
	if err != nil {
		return "", err
	}
	page := fmt.Sprintf("<!doctype html><meta charset=\"utf-8\"><meta name=\"referrer\" content=\"no-referrer\">"+
		"<script>location.replace(%s)</script>"+
		"<meta http-equiv=\"refresh\" content=\"0;url=%s\"><title>mcpeek</title><p>Opening mcpeek…</p>\n", quoted, html.EscapeString(target))
	if err := safefile.WriteNew(path, []byte(page), 0o600); err != nil {
		return "", err
	}
	return path, nil
}

// OpenPrivately opens target through launch (a [SystemBrowser] or an
// [OpenWith]) without putting it in another process's arguments, which
// other local users can read: launch is given the file:// URL of a
// private launch page that sends the browser on to target. remove deletes
// the page, once the caller stops waiting for the browser; when launch
// fails it is gone already (and remove is nil). An authorization URL goes
// this way: its state would let whoever read it end the login, or answer
// it with words of theirs.
func OpenPrivately(launch func(fileURL string) error, target string) (remove func(), err error) {
	dir, err := newLaunchDir()
	if err != nil {
		return nil, fmt.Errorf("launch page: %w", err)
	}
	remove = func() { _ = os.RemoveAll(dir) }
	path, err := writeLaunchPage(filepath.Join(dir, "open.html"), target)
	if err != nil {
		remove()
		return nil, fmt.Errorf("launch page: %w", err)
	}
	if err := launch(fileURL(path)); err != nil {
		remove()
		return nil, err
	}
	return remove, nil
}

// fileURL is the file:// URL of an absolute path.
func fileURL(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// launchURL is the URL the browser is started with where the kernel shows
// who owns a connection: it holds the session's launch id, which is not
// its token and grants nothing by itself (it is in the browser's
// arguments, for every local user to read). The app host answers it
// (serveLaunch) by sending the tab on to the session's link only when the
// connection asking is this user's own, and only once.
func (h *Host) launchURL(s *session) string {
	return h.BridgeOrigin() + "/r/" + s.launchID
}

// serveLaunch answers a launch URL. The connection's owner must be this
// user, as the kernel's socket tables show it, and the id a live session's
// not used before: then the tab is redirected to the session's link (the
// token in its fragment, as the launch file would have sent it; the
// redirect is part of the same navigation, in the same renderer process).
// Anything else gets a page that says why, and the id stays good for the
// person's own browser when another user's program asked first.
func (h *Host) serveLaunch(w http.ResponseWriter, r *http.Request, id string) {
	if h.owners == "" { // launch URLs are not given out here
		http.NotFound(w, r)
		return
	}
	uid, err := h.ownerOf(r)
	switch {
	case err != nil:
		h.opts.Logf("app host: refused a launch URL: who opened it cannot be told: %v", err)
		launchRefusal(w, http.StatusForbidden, "mcpeek could not tell which user's program opened this link, so it did not open the request here. Run mcpeek with --no-browser and open the URL it prints.")
		return
	case uid != os.Getuid():
		h.opts.Logf("app host: refused a launch URL opened by a program of user %d", uid)
		launchRefusal(w, http.StatusForbidden, fmt.Sprintf("This link was opened by a program of another user (uid %d). mcpeek opens a request only in the browser of the user who runs it.", uid))
		return
	}
	s := h.sessionWith(id, func(s *session) string { return s.launchID })
	if s == nil {
		launchRefusal(w, http.StatusNotFound, "This link is not valid: its request has ended, or mcpeek did not give it out.")
		return
	}
	s.mu.Lock()
	used := s.launchUsed
	s.launchUsed = true
	s.mu.Unlock()
	if used {
		h.opts.Logf("app host: refused a launch URL for %s: already used", clip(s.key, 80))
		launchRefusal(w, http.StatusGone, "This link was already used: mcpeek opens each request in one tab, once. Look for the tab it opened.")
		return
	}
	http.Redirect(w, r, s.link(), http.StatusSeeOther)
}

// launchRefusal is the page a launch URL gets when it leads nowhere.
func launchRefusal(w http.ResponseWriter, code int, text string) {
	w.Header().Set("Content-Security-Policy", "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = fmt.Fprintf(w, "<!doctype html><meta charset=\"utf-8\"><title>mcpeek</title><p>%s</p>\n", html.EscapeString(text))
}

// connKey keys the connection a request came on in its context.
type connKey struct{}

// withConn is the server's ConnContext: it keeps the connection, whose
// other end's owner the launch URL and the WebSocket are checked by.
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// ownerOf is the user whose program holds the other end of the
// connection the request came on, as the kernel's socket tables show it.
func (h *Host) ownerOf(r *http.Request) (int, error) {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	if c == nil {
		return 0, errors.New("no connection")
	}
	return connUID(h.owners, c)
}

// sameUser reports, with why not, whether the request came on a
// connection whose other end this user's program holds.
func (h *Host) sameUser(r *http.Request) error {
	uid, err := h.ownerOf(r)
	switch {
	case err != nil:
		return err
	case uid != os.Getuid():
		return fmt.Errorf("a program of user %d", uid)
	}
	return nil
}
