package session

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// ErrInterrupted is the cause when Ctrl+C ended a wait for the person.
var ErrInterrupted = errors.New("interrupted")

// UsageError is a mistake in what the person gave (a flag, a config
// entry, an answer): the command line says so, exit 2.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error { return UsageError{Msg: fmt.Sprintf(format, args...)} }

// SelfName is how a person runs this program: "go run ." under go run.
func SelfName() string {
	exe, err := os.Executable()
	if err == nil && strings.Contains(exe, "go-build") {
		return "go run ."
	}
	return "mcpeek"
}
