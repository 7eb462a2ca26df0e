package mcpclient

import (
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/mcpeek/mcpeek/internal/secret"
	"github.com/mcpeek/mcpeek/internal/textclean"
)

// Secrets are the secrets a run of mcpeek knows: the credentials of -H
// headers and of MCP configs, a client secret, and each token and code
// the authorizer learns, as it learns them. Whatever mcpeek shows or
// prints passes through one set (the wire log's, shared with the command
// line's output and the inspector's screen; see [WireLog.UseSecrets]), so
// that a server quoting a token back shows "[redacted]" everywhere alike.
//
// A nil *Secrets knows none. It is safe for concurrent use.
type Secrets struct {
	mu sync.RWMutex
	// needles are what Redact replaces: each secret, and its form inside
	// a JSON string where that differs.
	needles []string
}

// maxSecrets bounds the secrets a set redacts.
const maxSecrets = 256

// Redacted is what a secret is replaced with.
const Redacted = "[redacted]"

// minSecret is the shortest string a set redacts.
const minSecret = 8

// Add makes the set redact secret from now on. A string shorter than 8
// bytes, or all digits, is not taken: redacting "test" or a date-like
// number would cut into words and numbers of the output (turning
// run_tests into run_[redacted]s, or a JSON number into invalid JSON)
// while hiding little.
func (s *Secrets) Add(secret string) {
	if s == nil || !worthHiding(secret) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range jsonForms(secret) {
		if !slices.Contains(s.needles, n) && len(s.needles) < 2*maxSecrets {
			s.needles = append(s.needles, n)
		}
	}
	// The longest first: a secret that contains another is hidden whole.
	slices.SortStableFunc(s.needles, func(a, b string) int { return len(b) - len(a) })
}

// worthHiding reports whether a string is long enough, and not a number,
// to be redacted.
func worthHiding(secret string) bool {
	if len(secret) < minSecret {
		return false
	}
	return strings.ContainsFunc(secret, func(r rune) bool { return r < '0' || r > '9' })
}

// AddCredential adds a credential as a header or a variable holds it:
// the whole value, and, for a value like "Bearer TOKEN", the token alone,
// which a server may quote without its scheme.
func (s *Secrets) AddCredential(value string) {
	s.Add(value)
	if _, cred, ok := strings.Cut(value, " "); ok {
		s.Add(strings.TrimSpace(cred))
	}
}

// CredentialHeader reports whether a header's name says it carries a
// credential (Authorization, Cookie, X-Api-Key, X-Auth-Token,
// Private-Token, X-Goog-Api-Key, …).
func CredentialHeader(name string) bool {
	return hasWord(name, "auth", "token", "key", "secret", "cookie", "session", "password")
}

// credentialEnv reports whether an environment variable's name says it
// holds a credential (GITHUB_TOKEN, OPENAI_API_KEY, DB_PASSWORD, …).
func credentialEnv(name string) bool {
	return hasWord(name, "token", "key", "secret", "password", "passwd", "credential")
}

func hasWord(name string, words ...string) bool {
	n := strings.ToLower(name)
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(n, w) })
}

// TargetSecrets are the credentials a target carries: the values of its
// credential headers, of the environment entries (env, envFile, -e)
// whose names say they hold one, of its URL's query and user information
// ([URLSecrets]), and of its command's flags whose names say so
// (--api-key=…, --token …: [secret.FlagValues]). [Secrets.AddCredential]
// takes each.
func TargetSecrets(t Target) []string {
	out := URLSecrets(t.URL)
	for _, f := range secret.FlagValues(t.Command) {
		out = append(out, strings.TrimPrefix(t.Command[f.Index], f.Prefix))
	}
	for name, values := range t.Headers {
		if CredentialHeader(name) {
			out = append(out, values...)
		}
	}
	for _, kv := range t.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && credentialEnv(k) {
			out = append(out, v)
		}
	}
	return out
}

// URLSecrets are the credentials a URL may carry: every value of its
// query (?access_token=…, ?key=…: a URL has no other place for a key, so
// each value is taken as one), its password, or its user name when it has
// no password (https://TOKEN@host), each as it is decoded and as it is
// written, since a server may quote either. A URL that does not parse
// carries none.
func URLSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return nil
	}
	var out []string
	add := func(decoded, written string) {
		out = append(out, decoded)
		if written != decoded {
			out = append(out, written)
		}
	}
	if u.User != nil {
		name, pw, ok := strings.Cut(u.User.String(), ":")
		if p, set := u.User.Password(); set && ok {
			add(p, pw)
		} else {
			add(u.User.Username(), name)
		}
	}
	for _, pair := range strings.Split(u.RawQuery, "&") {
		_, written, _ := strings.Cut(pair, "=")
		if written == "" {
			continue
		}
		decoded, err := url.QueryUnescape(written)
		if err != nil {
			decoded = written
		}
		add(decoded, written)
	}
	return out
}

// jsonForms are secret itself and the forms it takes inside a JSON string
// (escaped as encoding/json escapes, with and without HTML escaping), so
// that a secret is hidden in printed JSON too.
func jsonForms(secret string) []string {
	forms := []string{secret}
	add := func(b []byte) {
		if f := string(b[1 : len(b)-1]); f != secret && !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	if b, err := json.Marshal(secret); err == nil {
		add(b)
	}
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	if enc.Encode(secret) == nil {
		add([]byte(strings.TrimSuffix(sb.String(), "\n")))
	}
	return forms
}

// known reports whether the set knows a secret.
func (s *Secrets) known() bool {
	if s == nil {
		return false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.needles) > 0
}

// Redact replaces every secret in text with [Redacted].
func (s *Secrets) Redact(text string) string {
	if s == nil {
		return text
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, n := range s.needles {
		if strings.Contains(text, n) {
			text = strings.ReplaceAll(text, n, Redacted)
		}
	}
	return text
}

// occursIn reports whether a secret occurs in b.
func (s *Secrets) occursIn(b []byte) bool {
	if s == nil || len(b) == 0 {
		return false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.ContainsFunc(s.needles, func(n string) bool { return bytes.Contains(b, []byte(n)) })
}

// SafeCut is where to cut text to keep at most its first n bytes without
// splitting a secret: n, or the start of a secret the cut at n would split
// (then the kept part ends before it). It reads no more of text than n
// and the longest secret, so it costs little on a huge text; the part kept
// is still to be redacted.
func (s *Secrets) SafeCut(text string, n int) int {
	if s == nil || n >= len(text) {
		return min(n, len(text))
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for moved := true; moved; { // a secret split at the new cut moves it again
		moved = false
		for _, needle := range s.needles {
			if start := straddling(text, needle, n); start >= 0 {
				n, moved = start, true
			}
		}
	}
	return n
}

// straddling is the start of an occurrence of needle in text that begins
// before at and ends after it, or -1: any occurrence within the window
// around at does.
func straddling(text, needle string, at int) int {
	from, to := max(at-len(needle)+1, 0), min(at+len(needle)-1, len(text))
	if from >= to {
		return -1
	}
	if j := strings.Index(text[from:to], needle); j >= 0 {
		return from + j
	}
	return -1
}

// cut is text redacted, then cut to at most n runes: redacted first, so
// that no part of a secret is left at the cut.
func (s *Secrets) cut(text string, n int) string {
	return textclean.Cut(s.Redact(text), n, textclean.SayRest())
}

// Writer returns a writer that redacts the secrets from each write before
// it reaches w. Each write is redacted on its own, so a secret must not be
// split across two (line-at-a-time output and one JSON document per write
// are not).
func (s *Secrets) Writer(w io.Writer) io.Writer { return &redactingWriter{w: w, secrets: s} }

type redactingWriter struct {
	w       io.Writer
	secrets *Secrets
}

func (r *redactingWriter) Write(p []byte) (int, error) {
	if !r.secrets.known() {
		return r.w.Write(p)
	}
	if out := r.secrets.Redact(string(p)); out != string(p) {
		if _, err := io.WriteString(r.w, out); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return r.w.Write(p)
}

// Unwrap is the writer underneath, for a caller that asks whether it is a
// terminal.
func (r *redactingWriter) Unwrap() io.Writer { return r.w }
