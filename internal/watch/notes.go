package watch

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/mcpeek/mcpeek/internal/safefile"
)

// NewURLNotes are the URL notes of a proxy whose own words go to errOut.
func NewURLNotes(errOut io.Writer) *URLNotes { return &URLNotes{errOut: errOut} }

// URLNotes show the person the URL of an app to open (--app-host with
// --no-browser, or no browser to open): the URL holds the session's
// one-time token, and the proxy's stderr is the host's log, so the words
// go to a private file (0600) in the proxies' own directory, which stderr
// names; the files go when the proxy ends.
type URLNotes struct {
	errOut io.Writer
	mu     sync.Mutex
	paths  []string
}

// Notify writes text (the app host's words, with the URL) to a private
// file and says on stderr where it is.
func (n *URLNotes) Notify(text string) {
	path, err := n.write(text)
	if err != nil {
		fmt.Fprintf(n.errOut, "mcpeek proxy: an app waits to answer a question, but its URL (which holds a token) is not written to this log: %v\n", err)
		return
	}
	fmt.Fprintf(n.errOut, "mcpeek proxy: an app waits to answer a question: the URL to open (it holds a one-time token) is in %s\n", path)
}

func (n *URLNotes) write(text string) (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	path := filepath.Join(dir, fmt.Sprintf("%d-open-%d.txt", os.Getpid(), len(n.paths)+1))
	f, err := safefile.Private(path)
	if err != nil {
		return "", err
	}
	n.paths = append(n.paths, path)
	_, err = io.WriteString(f, text+"\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return path, err
}

// Remove deletes the files written: their tokens end with the proxy.
func (n *URLNotes) Remove() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, p := range n.paths {
		_ = os.Remove(p)
	}
	n.paths = nil
}
