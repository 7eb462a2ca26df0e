//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package widget

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"weak"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Shown are the secrets of the inspectors this process runs (one; tests
// run several side by side): -H and config credentials, tokens learned in
// a login. Whatever the inspector draws is redacted of them before it is
// cut, wrapped or cleaned (clean, line), since a secret wrapped across two
// lines or cut short is no longer found whole in the finished frame.
//
// The sets are held weakly: an inspector's set goes with it.
var Shown SecretSets

type SecretSets struct {
	mu   sync.RWMutex
	sets []weak.Pointer[mcpclient.Secrets]
}

// Add makes the inspector redact the secrets of set too.
func (s *SecretSets) Add(set *mcpclient.Secrets) {
	if set == nil {
		return
	}
	p := weak.Make(set)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sets = slices.DeleteFunc(s.sets, func(w weak.Pointer[mcpclient.Secrets]) bool { return w.Value() == nil })
	if !slices.Contains(s.sets, p) {
		s.sets = append(s.sets, p)
	}
}

// Each calls f with each live set.
func (s *SecretSets) Each(f func(*mcpclient.Secrets)) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, w := range s.sets {
		if set := w.Value(); set != nil {
			f(set)
		}
	}
}

// Redact is text with every secret the inspectors know redacted.
func Redact(text string) string {
	Shown.Each(func(set *mcpclient.Secrets) { text = set.Redact(text) })
	return text
}

// CutRedacted is CutText with the secrets redacted: the cut moves to the
// start of a secret it would split, so that no part of one is left, and
// [mcpclient.Redacted] says one was there.
func CutRedacted(s string, n int) string {
	if len(s) <= n {
		return Redact(s)
	}
	at := len(CutText(s, n))
	cut := at
	for moved := true; moved; {
		moved = false
		Shown.Each(func(set *mcpclient.Secrets) {
			if c := set.SafeCut(s, cut); c < cut {
				cut, moved = c, true
			}
		})
	}
	if cut < at { // a secret was left out whole
		return Redact(s[:cut]) + mcpclient.Redacted
	}
	return Redact(s[:cut])
}

// RedactNative is what of an elicitation the person is shown, with the
// secrets redact knows redacted: the server's identity and message, the
// URL of a URL elicitation, the fields' labels, descriptions, choices and
// default values (a default shown redacted is sent as shown).
func RedactNative(req *mcpclient.NativeRequest, redact func(string) string) *mcpclient.NativeRequest {
	out := *req
	if req.Server != nil {
		server := *req.Server
		server.Name, server.Title = redact(server.Name), redact(server.Title)
		out.Server = &server
	}
	out.Connection = redact(req.Connection)
	if req.Params != nil {
		params := *req.Params
		params.Message, params.URL = redact(params.Message), redact(params.URL)
		out.Params = &params
	}
	out.Schema = redactSchema(req.Schema, redact)
	return &out
}

// redactSchema is a copy of schema whose shown strings are redacted.
func redactSchema(schema *formschema.Schema, redact func(string) string) *formschema.Schema {
	if schema == nil {
		return nil
	}
	out := *schema
	out.Fields = slices.Clone(schema.Fields)
	for i := range out.Fields {
		f := &out.Fields[i]
		f.Label, f.Description = redact(f.Label), redact(f.Description)
		if d, ok := f.Default.(string); ok {
			f.Default = redact(d)
		}
		f.Options = slices.Clone(f.Options)
		for j := range f.Options {
			o := &f.Options[j]
			if o.Title == "" {
				if v := fmt.Sprint(o.Value); redact(v) != v {
					o.Title = redact(v)
				}
			}
			o.Title = redact(o.Title)
		}
	}
	return &out
}

// RedactSample is a sampling request as the person is shown it, with the
// secrets redact knows redacted from every string of its parameters
// (redacted in their JSON, whose escaped forms redact knows too).
func RedactSample(req *mcpclient.SampleRequest, redact func(string) string) *mcpclient.SampleRequest {
	out := *req
	if req.Server != nil {
		server := *req.Server
		server.Name, server.Title = redact(server.Name), redact(server.Title)
		out.Server = &server
	}
	out.Connection = redact(req.Connection)
	if req.Params != nil {
		var params mcp.CreateMessageWithToolsParams
		if raw, err := json.Marshal(req.Params); err == nil && json.Unmarshal([]byte(redact(string(raw))), &params) == nil {
			out.Params = &params
		} else {
			out.Params = &mcp.CreateMessageWithToolsParams{SystemPrompt: "(a request mcpeek could not show without its secrets)"}
		}
	}
	return &out
}
