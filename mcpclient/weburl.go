package mcpclient

import (
	"errors"
	"fmt"
	"net/url"
)

// WebURL parses raw as a page mcpeek may open in the person's browser: an
// absolute http or https URL with a host (the scheme in any case). Nothing
// else is ever opened, whatever the person consented to: not file:,
// javascript:, data: or an application's scheme (vscode:), which a server
// or an app could use to reach past the browser.
func WebURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.New("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" { // url.Parse lower-cases the scheme
		if u.Scheme == "" {
			return nil, errors.New("not an absolute URL: only http and https pages are opened")
		}
		return nil, fmt.Errorf("only http and https pages are opened, not %s URLs", u.Scheme)
	}
	if u.Host == "" {
		return nil, errors.New("the URL names no host")
	}
	return u, nil
}
