// Snapshots (one YAML file per suite, written only with -u), redaction,
// and era parity.

package suite

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mcpeek/mcpeek/internal/jsondoc"
	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/internal/secret"
	"github.com/mcpeek/mcpeek/internal/yamlout"
	"github.com/theory/jsonpath"
	"go.yaml.in/yaml/v3"
)

// snapshotDir is the folder beside a suite that holds its snapshots.
const snapshotDir = "__snapshots__"

// Placeholder replaces a redacted value.
const Placeholder = jsondoc.Placeholder

// snapshots are one suite's snapshot file.
type snapshots struct {
	path string
	mu   sync.Mutex
	// stored are the file's snapshots; loadErr why it could not be read.
	stored  map[string]any
	loadErr error
	updated map[string]any
	// pending are the results a comparison found missing or changed,
	// by snapshot name: what accepting them would write.
	pending map[string]Pending
}

// SnapshotPath is where a suite's snapshots are kept:
// __snapshots__/NAME.snap.yaml beside it.
func SnapshotPath(suiteFile string) string {
	base := filepath.Base(suiteFile)
	for _, ext := range []string{".mcpeek.yaml", ".yaml", ".yml"} {
		if strings.HasSuffix(base, ext) {
			base = strings.TrimSuffix(base, ext)
			break
		}
	}
	return filepath.Join(filepath.Dir(suiteFile), snapshotDir, base+".snap.yaml")
}

func loadSnapshots(s *Suite) *snapshots {
	sn := &snapshots{path: SnapshotPath(s.File), stored: map[string]any{}}
	data, err := safefile.ReadNoLink(sn.path)
	if err != nil {
		if !os.IsNotExist(err) {
			sn.loadErr = err
		}
		return sn
	}
	var v map[string]any
	if err := yaml.Unmarshal(data, &v); err != nil {
		sn.loadErr = fmt.Errorf("%s: %v", sn.path, err)
		return sn
	}
	for k, val := range v {
		if sn.stored[k], err = jsonValue(val); err != nil {
			sn.loadErr = fmt.Errorf("%s: %s: %v", sn.path, k, err)
		}
	}
	return sn
}

// check compares got with the snapshot name, or keeps it to be written
// when updating; nil when it passes.
func (sn *snapshots) check(name string, got any, update bool) *Failure {
	sn.mu.Lock()
	defer sn.mu.Unlock()
	what := "snapshot " + name
	if update {
		if sn.updated == nil {
			sn.updated = map[string]any{}
		}
		sn.updated[name] = got
		return nil
	}
	if sn.loadErr != nil {
		return &Failure{What: what, Message: sn.loadErr.Error()}
	}
	want, ok := sn.stored[name]
	if !ok {
		sn.keepPending(Pending{Name: name, Value: got})
		return &Failure{What: what, Message: fmt.Sprintf("no snapshot %q in %s: run mcpeek test -u to write it", name, sn.path)}
	}
	// A snapshot written before the envelope was left out may hold it.
	if d, differ := jsondoc.FirstDiff(comparable(want), got, jsondoc.Options{}); differ {
		sn.keepPending(Pending{Name: name, Value: got, Stored: true})
		return &Failure{What: what + " at " + d.Path.JSONPath(), Expected: show(d.A), Actual: show(d.B)}
	}
	return nil
}

func (sn *snapshots) keepPending(p Pending) {
	if sn.pending == nil {
		sn.pending = map[string]Pending{}
	}
	sn.pending[p.Name] = p
}

// write writes the snapshots taken with -u over the file's others.
func (sn *snapshots) write() error {
	sn.mu.Lock()
	defer sn.mu.Unlock()
	if len(sn.updated) == 0 {
		return nil
	}
	all := map[string]any{}
	for k, v := range sn.stored {
		all[k] = v
	}
	for k, v := range sn.updated {
		all[k] = v
	}
	data, err := yamlout.Marshal(all) // keys sorted; reads back as written
	if err != nil {
		return fmt.Errorf("snapshots: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(sn.path), 0o755); err != nil {
		return fmt.Errorf("snapshots: %w", err)
	}
	header := "# Written by mcpeek test -u; compared by mcpeek test.\n"
	return sn.store(append([]byte(header), data...))
}

// store writes the snapshot file's text: inside its suite's folder (the
// one __snapshots__ is in), never through a link a repository commits.
func (sn *snapshots) store(text []byte) error {
	return safefile.WriteInside(filepath.Dir(filepath.Dir(sn.path)), sn.path, text, 0o644)
}

// redact is doc (a copy the caller owns) with what each path selects
// replaced by the placeholder.
func redact(doc any, paths []*Redaction) any {
	return jsondoc.Redact(doc, selectors(paths))
}

// selectors are the redactions' JSONPaths.
func selectors(paths []*Redaction) []*jsonpath.Path {
	out := make([]*jsonpath.Path, len(paths))
	for i, r := range paths {
		out[i] = r.Path
	}
	return out
}

// hideSecrets is doc (a copy the caller owns) with what the one secret
// rule holds secret in a result hidden (secret.Hide): the values of
// fields named as secrets, and the run's secrets in its strings. A
// snapshot is committed, and the snapshot file is the one thing the run
// writes that does not go through them.
func hideSecrets(doc any, secrets secret.Known) any {
	return secret.Hide(doc, secrets, Placeholder)
}

// comparable is a copy of a result without its era's envelope
// (jsondoc.StripEnvelope), so that a snapshot, era parity and a replay
// compare what the server answered: a result saved in one era compares
// equal with the same answer in the other.
func comparable(doc any) any {
	return jsondoc.StripEnvelope(jsondoc.Copy(doc))
}

// parity reports, for each test run in more than one revision, whether
// its results were equal after redaction; nil when no test ran twice. A
// test that failed in a revision has no parity to report: its failure
// says more.
func (r *runner) parity(s *Suite, results []*SuiteResult) *SuiteResult {
	if len(results) < 2 {
		return nil
	}
	out := &SuiteResult{File: s.File, Revision: ParityRevision}
	for _, t := range s.Tests {
		if !t.Parity || t.Skip {
			continue
		}
		var runs []*TestResult
		for _, sr := range results {
			for _, tr := range sr.Tests {
				if tr.Name == t.Name && tr.Status == StatusPassed {
					runs = append(runs, tr)
				}
			}
		}
		if len(runs) < 2 {
			continue
		}
		res := &TestResult{Name: t.Name + " (era parity)", File: s.File, Line: t.Line, Revision: ParityRevision, Status: StatusPassed}
		first := runs[0]
		for _, other := range runs[1:] {
			if f := parityDiff(first, other); f != nil {
				f.Line = t.Line
				res.Failures = append(res.Failures, *f)
			}
		}
		if len(res.Failures) > 0 {
			res.Status = StatusFailed
		}
		out.Tests = append(out.Tests, res)
	}
	if len(out.Tests) == 0 {
		return nil
	}
	return out
}

func parityDiff(a, b *TestResult) *Failure {
	for i := range max(len(a.docs), len(b.docs)) {
		var x, y parityDoc
		if i < len(a.docs) {
			x = a.docs[i]
		}
		if i < len(b.docs) {
			y = b.docs[i]
		}
		if x.whole && y.whole {
			if d, differ := jsondoc.FirstDiff(x.doc, y.doc, jsondoc.Options{}); differ {
				return &Failure{Step: i + 1, What: fmt.Sprintf("%s vs %s at %s", a.Revision, b.Revision, d.Path.JSONPath()), Expected: show(d.A), Actual: show(d.B)}
			}
			continue
		}
		if x.sum == y.sum {
			continue
		}
		return &Failure{Step: i + 1, What: fmt.Sprintf("%s vs %s", a.Revision, b.Revision),
			Message: fmt.Sprintf("the results differ (%d and %d bytes of JSON, too large to keep for saying where)", x.size, y.size)}
	}
	return nil
}

// parityKeep is the largest result (as JSON) era parity keeps whole, to
// say where the eras differ; of a larger one it keeps a digest, so that a
// suite of large results does not hold them all until the run ends.
const parityKeep = 1 << 20

// parityDoc is what era parity keeps of a step's redacted result.
type parityDoc struct {
	doc   any // the result, when whole
	whole bool
	size  int
	sum   [sha256.Size]byte
}

func keepForParity(redacted any) parityDoc {
	data, err := json.Marshal(redacted) // keys sorted: equal results, equal bytes
	if err != nil {
		return parityDoc{doc: redacted, whole: true}
	}
	d := parityDoc{size: len(data), sum: sha256.Sum256(data)}
	if len(data) <= parityKeep {
		d.doc, d.whole = redacted, true
	}
	return d
}
