// Eras a server does not speak: a suite that names no protocol: runs in
// the revisions its server speaks and reports each other one once, as
// skipped with the reason; a revision a suite or a test names is
// required, and a server that does not speak it fails the tests.

package suite

import (
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// eraSkips are the revisions each suite's server was found not to
// speak, and why.
type eraSkips struct {
	mu  sync.Mutex
	why map[eraKey]string
}

type eraKey struct {
	suite    *Suite
	revision string
}

// skip marks u's tests as not run when its suite's server is known not
// to speak u's revision and none of them requires it; true when it did.
func (e *eraSkips) skip(u *unit) bool {
	e.mu.Lock()
	why := e.why[eraKey{u.suite, u.revision}]
	e.mu.Unlock()
	if why == "" || slices.ContainsFunc(u.results, func(r *TestResult) bool { return !r.anyRevision }) {
		return false
	}
	for _, res := range u.results {
		res.unspoken = why
	}
	return true
}

// found reads a failure to connect: when the server does not speak u's
// revision and some of u's tests run in any revision, it is kept for the
// suite's other sessions, those tests are marked as not run, and those
// that require the revision fail. False when err is another failure, or
// every test requires the revision (which fails as any connection does).
func (e *eraSkips) found(u *unit, err error) bool {
	var rev *mcpclient.RevisionError
	if !errors.As(err, &rev) || !slices.ContainsFunc(u.results, func(r *TestResult) bool { return r.anyRevision }) {
		return false
	}
	why := rev.Error()
	e.mu.Lock()
	if e.why == nil {
		e.why = map[eraKey]string{}
	}
	e.why[eraKey{u.suite, u.revision}] = why
	e.mu.Unlock()
	for _, res := range u.results {
		if res.anyRevision {
			res.unspoken = why
			continue
		}
		res.Status = StatusFailed
		res.Failures = []Failure{{Line: res.Line, What: "connect", Message: err.Error()}}
	}
	return true
}

// settleUnspoken takes the tests that did not run because the server does
// not speak the revision out of sr, and says so once; the tests written
// skip: true that would have run there go too, as they would not have
// run in it either.
func settleUnspoken(sr *SuiteResult) {
	for _, t := range sr.Tests {
		if t.unspoken != "" {
			sr.Skipped = t.unspoken + "; the suite names no protocol:, so it runs in the revisions the server speaks"
			break
		}
	}
	if sr.Skipped == "" {
		return
	}
	sr.Tests = slices.DeleteFunc(sr.Tests, func(t *TestResult) bool {
		return t.unspoken != "" || t.anyRevision && t.Status == StatusSkipped
	})
}

// noEraSpoken fails a suite whose every revision was skipped because the
// server speaks none of them: a run that tested nothing must not pass.
// The revisions' skips become one failed test that says so.
func noEraSpoken(s *Suite, results []*SuiteResult) {
	if len(results) == 0 {
		return
	}
	var revs []string
	for _, sr := range results {
		if sr.Skipped == "" || slices.ContainsFunc(sr.Tests, func(t *TestResult) bool { return t.Status == StatusFailed }) {
			return
		}
		revs = append(revs, sr.Revision)
	}
	why := results[0].Skipped
	for _, sr := range results {
		sr.Skipped = ""
	}
	line := s.ServerLine
	if line == 0 {
		line = 1
	}
	results[0].Tests = append(results[0].Tests, &TestResult{Name: "(every test)", File: s.File, Line: line, Revision: results[0].Revision,
		Status: StatusFailed, Failures: []Failure{{Line: line, What: "protocol",
			Message: "the server speaks none of the revisions the suite runs in (" + strings.Join(revs, ", ") + "), so no test ran: " + why}}})
}
