package proxy

import (
	"net/http"
)

// upstreamHeaders sets what each request the proxy sends to a URL
// server carries whoever built it: the -H headers (in place of the
// host's of the same name), then the stored token (authorize).
func (o Options) upstreamHeaders(req *http.Request) {
	for k, vs := range o.Target.Headers {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	o.authorize(req)
}

// authorize sets the bearer token mcpeek holds for a URL server on a
// request to it, unless the host sent authorization of its own. The
// token is one of the run's secrets: the wire log and the recording
// redact it, and the proxy never says it.
func (o Options) authorize(req *http.Request) {
	if o.Token == nil || req.Header.Get("Authorization") != "" {
		return
	}
	tok, err := o.Token.Token()
	if err != nil || tok == nil || tok.AccessToken == "" {
		o.Wire.Note("proxy: the stored token for the server could not be used (nor refreshed); forwarding without it")
		return
	}
	tok.SetAuthHeader(req)
}

// unauthorized says once, on stderr and in the wire log, what to do when
// the URL server asks for authorization: the proxy never starts a login
// itself, its stdout being the host's (or the host's being a browser's).
func (o Options) unauthorized(resp *http.Response) {
	if resp.StatusCode != http.StatusUnauthorized || o.authSaid == nil {
		return
	}
	o.authSaid.Do(func() {
		what := "mcpeek holds no token for it"
		if o.Token != nil {
			what = "it refused the token mcpeek holds for it"
		}
		o.report("the server asks for authorization (HTTP 401) and " + what +
			": run `mcpeek auth login " + o.Target.URL + "` once (or connect with mcpeek and log in there), then restart the host")
	})
}
