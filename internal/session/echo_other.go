//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package session

import "errors"

// echoOff is not known here: readPassword falls back to term.ReadPassword.
func echoOff(int) (func(), error) { return nil, errors.New("no termios here") }
