// One test on a connection the runner did not make (the inspector's): in
// the connection's revision, the test's answers standing in for whatever
// answers the connection's questions, the connection left open; and the
// snapshots a run found missing or changed, accepted as -u writes them.

package suite

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// On is a connection someone else holds, for [RunOne].
type On struct {
	Conn *mcpclient.Conn
	// StandIn puts the run's asker in front of whatever answers the
	// connection's questions (its forms, its app) until restore is called:
	// [mcpclient.Conn.StandIn], or a wrapper of it.
	StandIn func(a *Asker) (restore func(), err error)
	// Secrets are redacted from results before snapshots, as in [Options].
	Secrets *mcpclient.Secrets
	// StrictAnswers fails a step whose answers were not all used.
	StrictAnswers bool
}

// Pending is a snapshot a run compared and did not find (Stored false)
// or found different: Value is what the step gave, redacted as the
// snapshot is, which accepting it writes.
type Pending struct {
	Name   string
	Value  any
	Stored bool
}

// One is what [RunOne] did: the test's result, and the snapshots it left
// pending, by name.
type One struct {
	Result  *TestResult
	Pending []Pending
}

// RunOne runs test t of suite s on the connection on names, in the
// connection's revision, as mcpeek test runs it in a session of its own:
// the same steps, answers, checks and snapshots (compared, never
// written). The suite's server, env and roots are not the connection's
// and play no part; a test whose own protocol list leaves out the
// connection's revision is skipped, saying so. Nothing of the
// connection is changed but the traffic the steps make (and the records
// of the questions asked); it stays open. The error is the context's when
// the run was cancelled (the result then says how far it got), or why the
// answers could not stand in.
func RunOne(ctx context.Context, on On, s *Suite, t *Test) (*One, error) {
	rev := on.Conn.ProtocolVersion()
	res := &TestResult{Name: t.Name, File: s.File, Line: t.Line, Revision: rev}
	// The test's protocol:, else the suite's when it names one.
	revs, whose := t.Revisions, "test"
	if revs == nil && !s.AnyRevision {
		revs, whose = s.Revisions, "suite"
	}
	switch {
	case t.Skip:
		res.Status, res.Skipped = StatusSkipped, t.SkipReason
		return &One{Result: res}, nil
	case revs != nil && !slices.Contains(revs, rev):
		res.Status = StatusSkipped
		res.Skipped = fmt.Sprintf("the %s runs in %s, the connection speaks %s", whose, strings.Join(revs, ", "), rev)
		res.Failures = []Failure{{Line: t.Line, What: "protocol", Message: res.Skipped}}
		return &One{Result: res}, nil
	}
	asker := &Asker{}
	restore, err := on.StandIn(asker)
	if err != nil {
		return nil, err
	}
	defer restore()
	r := &runner{opts: Options{Secrets: on.Secrets, StrictAnswers: on.StrictAnswers}, cancel: func() {}}
	u := &unit{suite: s, revision: rev, tests: []*Test{t}, results: []*TestResult{res}, snaps: loadSnapshots(s)}
	r.runTest(ctx, u, &session{conn: on.Conn, asker: asker}, t, res)
	out := &One{Result: res}
	for _, p := range u.snaps.pending {
		out.Pending = append(out.Pending, p)
	}
	sort.Slice(out.Pending, func(i, j int) bool { return out.Pending[i].Name < out.Pending[j].Name })
	return out, ctx.Err()
}

// Accept writes pending snapshots into the snapshot file of the suite at
// suiteFile, over what it holds for their names and beside its others,
// as mcpeek test -u writes them. A snapshot file that cannot be read is
// not written over (its other snapshots would be lost).
func Accept(suiteFile string, pending []Pending) error {
	if len(pending) == 0 {
		return errors.New("no snapshot is pending")
	}
	sn := loadSnapshots(&Suite{File: suiteFile})
	if sn.loadErr != nil {
		return fmt.Errorf("not written: %w", sn.loadErr)
	}
	sn.updated = map[string]any{}
	for _, p := range pending {
		sn.updated[p.Name] = p.Value
	}
	return sn.write()
}
