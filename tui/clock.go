// The inspector's time: Options.Clock and Options.Grace reach every form
// and card of tui/layer that counts time (the elicitation, sampling and
// arguments forms, the URL, link and login cards), so that a test can
// stop the clock or turn the grace period off instead of waiting.

package tui

import (
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// now is the inspector's clock.
func (o Options) now() time.Time {
	if o.Clock != nil {
		return o.Clock()
	}
	return time.Now()
}

// argsOptions are the options of an arguments form: the inspector's clock
// and grace period.
func (o Options) argsOptions() nativeform.Options {
	return nativeform.Options{Now: o.Clock, Grace: o.Grace}
}

// formOptions are the options of the form of a server's request: those
// of any form, and the elicitation timeout.
func (o Options) formOptions() nativeform.Options {
	opts := o.argsOptions()
	opts.Timeout = o.ElicitTimeout
	return opts
}

// urlCard is the consent card of a URL-mode elicitation, on the
// inspector's clock; queued counts the queue.
func (o Options) urlCard(c *widget.Common, req *mcpclient.NativeRequest, queued func() int) *layer.URLCard {
	l := layer.NewURLCard(c, req, o.OpenURL, o.ElicitTimeout, queued)
	l.Now, l.Grace = o.Clock, o.Grace
	l.Shown(o.now())
	return l
}

// linkCard is the consent card of an app's link, on the inspector's
// clock; links counts the links waiting.
func (o Options) linkCard(c *widget.Common, req *layer.LinkRequest, links func() int) *layer.LinkCard {
	l := layer.NewLinkCard(c, req, links)
	l.Now, l.Grace = o.Clock, o.Grace
	l.Shown(o.now())
	return l
}

// loginCard is the card of a new login, counting the wait on the
// inspector's clock.
func (o Options) loginCard(c *widget.Common) *layer.LoginCard {
	l := layer.NewLoginCard(c, o.Target)
	l.Now = o.Clock
	l.Shown(o.now())
	return l
}
