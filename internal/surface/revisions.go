package surface

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What a probe found of one revision (Surface.ProbedRevisions).
const (
	RevisionAccepted = "accepted"
	RevisionRefused  = "refused"
)

// Connector makes one more connection to the server a surface is of,
// requiring protocol revision, and returns the revision agreed. An error
// that is a [*mcpclient.ConnectError] is the server refusing it (it
// answered with another revision, or not at all); any other error ends
// the probe.
type Connector func(ctx context.Context, revision string) (string, error)

// Probe records in s which revisions its server accepts: the one s was
// taken on, and each other revision mcpeek speaks, tried on a connection
// of its own (2025-11-25 and older by initialize, 2026-07-28 by
// server/discover). Nothing is inferred from what one handshake lists: a
// discovery may name only the modern revisions of a server that still
// answers initialize, and initialize names only the one it agreed.
func (s *Surface) Probe(ctx context.Context, connect Connector) error {
	probed := map[string]string{}
	if s.ProtocolVersion != "" {
		probed[s.ProtocolVersion] = RevisionAccepted
	}
	for _, v := range mcp.SupportedProtocolVersions() {
		if v == s.ProtocolVersion {
			continue
		}
		got, err := connect(ctx, v)
		switch {
		case err == nil && got == v:
			probed[v] = RevisionAccepted
		case ctx.Err() != nil:
			return ctx.Err()
		case err == nil || errors.As(err, new(*mcpclient.ConnectError)):
			probed[v] = RevisionRefused
		default:
			return fmt.Errorf("probe protocol revision %s: %w", v, err)
		}
	}
	s.ProbedRevisions = probed
	return nil
}

// accepts reports whether the surface shows its server accepts revision
// v: a probe accepted it, or, where no probe refused it, the surface was
// taken on it or a discovery listed it.
func (s *Surface) accepts(v string) bool {
	switch s.ProbedRevisions[v] {
	case RevisionAccepted:
		return true
	case RevisionRefused:
		return false
	}
	return v == s.ProtocolVersion || slices.Contains(s.SupportedVersions, v)
}

// revisions are the revisions the surface says anything of, newest first.
func (s *Surface) revisions() []string {
	vs := slices.Concat(s.SupportedVersions, slices.Collect(maps.Keys(s.ProbedRevisions)))
	if s.ProtocolVersion != "" {
		vs = append(vs, s.ProtocolVersion)
	}
	slices.Sort(vs)
	slices.Reverse(vs)
	return slices.Compact(vs)
}

// revisionFindings compare the revisions each side's server accepts: a
// revision is dropped only when the new side's probe refused one the old
// side accepted; when the new side holds no probe of it (a surface of an
// older mcpeek, or the inspector's live one) the report says it is
// unknown rather than guess across eras.
func revisionFindings(old, new *Surface) []Finding {
	var fs []Finding
	add := func(key, msg string) { fs = append(fs, finding(key, "/probedRevisions", msg)) }
	for _, v := range slices.Compact(slices.Sorted(slices.Values(slices.Concat(old.revisions(), new.revisions())))) {
		oldAccepts, newAccepts := old.accepts(v), new.accepts(v)
		_, newProbed := new.ProbedRevisions[v]
		switch {
		case oldAccepts && !newAccepts && newProbed:
			add("protocol-revision-dropped", fmt.Sprintf("protocol revision %s: the old server accepted it, the new one refuses it: a client that speaks only it cannot connect", v))
		case oldAccepts && !newAccepts:
			add("protocol-revision-unknown", fmt.Sprintf("protocol revision %s: the old server accepted it; whether the new one does is unknown (its surface holds no probe of it: take it with mcpeek surface)", v))
		case newAccepts && !oldAccepts:
			add("protocol-revision-added", fmt.Sprintf("protocol revision %s is now accepted", v))
		}
	}
	return fs
}
