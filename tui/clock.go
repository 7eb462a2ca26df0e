package tui

import (
	"time"

	"github.com/mcpeek/mcpeek/nativeform"
)

// The inspector's time: Options.Clock and Options.Grace reach every form
// and card that counts time (the elicitation, sampling and arguments
// forms, the URL and link cards), so that a test can stop the clock or
// turn the grace period off instead of waiting.

// now is the inspector's clock.
func (o Options) now() time.Time {
	if o.Clock != nil {
		return o.Clock()
	}
	return time.Now()
}

// grace is how long a form or card just shown ignores keys.
func (o Options) grace() time.Duration {
	if o.Grace == 0 {
		return nativeform.DefaultGrace
	}
	return o.Grace
}

// formOptions are the options of a form the inspector shows.
func (o Options) formOptions() nativeform.Options {
	return nativeform.Options{Timeout: o.ElicitTimeout, Now: o.Clock, Grace: o.Grace}
}
