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

// knows is what the surface shows of its server and revision v: accepted
// (a probe accepted it, or, where no probe refused it, the surface was
// taken on it or a discovery listed it), refused (a probe refused it), or
// "" when it shows nothing.
func (s *Surface) knows(v string) string {
	if p := s.ProbedRevisions[v]; p != "" {
		return p
	}
	if v == s.ProtocolVersion || slices.Contains(s.SupportedVersions, v) {
		return RevisionAccepted
	}
	return ""
}

// revisions are the revisions the surface says anything of.
func (s *Surface) revisions() []string {
	vs := slices.Concat(s.SupportedVersions, slices.Collect(maps.Keys(s.ProbedRevisions)))
	if s.ProtocolVersion != "" {
		vs = append(vs, s.ProtocolVersion)
	}
	return vs
}

// revisionFindings compare what each side shows of each revision: one is
// dropped only when the new side's probe refused what the old side
// accepted, and added only when the old side's refused what the new side
// accepts. Where one side shows nothing of a revision (a surface of an
// older mcpeek, taken without probes) and the change would break a
// client, the report says it is unknown rather than guess across eras.
func revisionFindings(old, new *Surface) []Finding {
	var fs []Finding
	add := func(key, msg string) { fs = append(fs, finding(key, "/probedRevisions", msg)) }
	all := slices.Concat(old.revisions(), new.revisions())
	slices.Sort(all)
	for _, v := range slices.Compact(all) {
		switch o, n := old.knows(v), new.knows(v); {
		case o == RevisionAccepted && n == RevisionRefused:
			add("protocol-revision-dropped", fmt.Sprintf("protocol revision %s: the old server accepted it, the new one refuses it: a client that speaks only it cannot connect", v))
		case o == RevisionRefused && n == RevisionAccepted:
			add("protocol-revision-added", fmt.Sprintf("protocol revision %s is now accepted", v))
		case o == RevisionAccepted && n == "":
			add("protocol-revision-unknown", fmt.Sprintf("protocol revision %s: the old server accepted it; whether the new one does is unknown (its surface holds no probe of it: take it with mcpeek surface)", v))
		case o == "" && n == RevisionRefused:
			add("protocol-revision-unknown", fmt.Sprintf("protocol revision %s: the new server refuses it; whether the old one accepted it is unknown (its surface holds no probe of it: take it again with mcpeek surface)", v))
		}
	}
	return fs
}
