package record

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// methodSetLevel asks a 2025-11-25 server for log messages at a level and
// above; from 2026-07-28 on the level travels in each request's _meta.
const methodSetLevel = "logging/setLevel"

// upkeepMethods are the requests of a session's upkeep a served recording
// answers when it holds none that match, with the empty result the spec
// defines: ping always (either side may ask it at any time), and
// logging/setLevel in 2025-11-25 when the recorded server offered logging
// (a client asks it first, whatever the recorded client did). What a
// server would do with them (a level's log messages) the recording cannot
// do: the summary says they were answered apart.
func upkeepMethods(h Header, script []*scripted) map[string]bool {
	out := map[string]bool{methodPing: true}
	if h.Protocol == legacyRevision && offersLogging(h, script) {
		out[methodSetLevel] = true
	}
	return out
}

// offersLogging reports whether the recorded server offered logging: in
// the recording's header, else in its recorded initialize response.
func offersLogging(h Header, script []*scripted) bool {
	var caps struct {
		Logging json.RawMessage `json:"logging"`
	}
	if json.Unmarshal(h.ServerCapabilities, &caps) == nil && len(caps.Logging) > 0 && string(caps.Logging) != "null" {
		return true
	}
	for _, sc := range script {
		if sc.method != mcpclient.MethodInitialize || sc.response == nil {
			continue
		}
		var r struct {
			Result struct {
				Capabilities struct {
					Logging json.RawMessage `json:"logging"`
				} `json:"capabilities"`
			} `json:"result"`
		}
		if json.Unmarshal(sc.response, &r) == nil && len(r.Result.Capabilities.Logging) > 0 && string(r.Result.Capabilities.Logging) != "null" {
			return true
		}
	}
	return false
}

// upkeep answers a request of the session's upkeep the recording holds
// none of ([upkeepMethods]); false when m is not one.
func (s *Server) upkeep(m wire, p peer) bool {
	if !s.upkeeps[m.Method] {
		return false
	}
	if m.Method == methodSetLevel {
		var params struct {
			Level string `json:"level"`
		}
		_ = json.Unmarshal(m.Params, &params)
		if err := mcpclient.CheckLogLevel(params.Level); err != nil {
			s.problem("%s: %v", methodSetLevel, err)
			errObj, _ := json.Marshal(map[string]any{"code": -32602, "message": "mcpeek replay: " + err.Error()})
			_ = p.send(response(m.ID, nil, errObj))
			return true
		}
	}
	s.mu.Lock()
	s.kept[m.Method]++
	s.mu.Unlock()
	_ = p.send(response(m.ID, json.RawMessage(`{}`), nil))
	return true
}

// writeUpkeep adds the summary's line of what was answered apart from the
// recording, when anything was.
func writeUpkeep(b *strings.Builder, kept map[string]int) {
	if len(kept) == 0 {
		return
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(kept)) {
		parts = append(parts, fmt.Sprintf("%s (%d)", k, kept[k]))
	}
	fmt.Fprintf(b, "  answered with the spec's empty result, not from the recording (not a mismatch): %s\n", strings.Join(parts, ", "))
}
