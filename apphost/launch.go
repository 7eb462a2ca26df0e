package apphost

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"

	"github.com/pkg/browser"
)

// SystemBrowser opens a URL in the person's browser, quietly. It declines
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

// quietBrowser silences pkg/browser's output once: its writers are globals.
var quietBrowser sync.Once

// OpenWith runs a shell command with the URL as its last argument, instead
// of the system browser (--open-with).
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
