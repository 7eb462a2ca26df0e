// Snapshots (one YAML file per suite, written only with -u), redaction,
// and era parity.

package suite

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/mcpeek/mcpeek/internal/secret"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/theory/jsonpath/spec"
	"go.yaml.in/yaml/v3"
)

// snapshotDir is the folder beside a suite that holds its snapshots.
const snapshotDir = "__snapshots__"

// Placeholder replaces a redacted value.
const Placeholder = "[redacted]"

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
	data, err := os.ReadFile(sn.path)
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
	if path, w, g, differ := firstDiff(want, got, "$"); differ {
		sn.keepPending(Pending{Name: name, Value: got, Stored: true})
		return &Failure{What: what + " at " + path, Expected: show(w), Actual: show(g)}
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
	data, err := yaml.Marshal(all) // keys sorted
	if err != nil {
		return fmt.Errorf("snapshots: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(sn.path), 0o755); err != nil {
		return fmt.Errorf("snapshots: %w", err)
	}
	header := "# Written by mcpeek test -u; compared by mcpeek test.\n"
	return os.WriteFile(sn.path, append([]byte(header), data...), 0o644)
}

// redact is doc (a copy the caller owns) with what each path selects replaced by the
// placeholder.
func redact(doc any, paths []*Redaction) any {
	if len(paths) == 0 || doc == nil {
		return doc
	}
	for _, r := range paths {
		located := r.Path.SelectLocated(doc)
		for _, n := range located {
			doc = setAt(doc, n.Path, Placeholder)
		}
	}
	return doc
}

// hideSecrets is doc (a copy the caller owns) with what the one secret
// rule holds secret in a result hidden (secret.Hide): the values of
// fields named as secrets, and the run's secrets in its strings. A
// snapshot is committed, and the snapshot file is the one thing the run
// writes that does not go through them.
func hideSecrets(doc any, secrets *mcpclient.Secrets) any {
	return secret.Hide(doc, secrets, Placeholder)
}

// eraEnvelope are the members of a result that say which revision carried
// it rather than what the server answered: 2026-07-28 adds resultType,
// and the server's identity in _meta.
var eraEnvelope = []string{"resultType"}

const serverInfoMeta = "io.modelcontextprotocol/serverInfo"

// comparable is a copy of a result without its era's envelope, so that a
// snapshot and era parity compare what the server answered.
func comparable(doc any) any {
	m, ok := doc.(map[string]any)
	if !ok {
		return doc
	}
	out := deepCopy(m).(map[string]any)
	for _, k := range eraEnvelope {
		delete(out, k)
	}
	if meta, ok := out["_meta"].(map[string]any); ok {
		delete(meta, serverInfoMeta)
		if len(meta) == 0 {
			delete(out, "_meta")
		}
	}
	return out
}

// setAt sets the value at a normalized path.
func setAt(doc any, path spec.NormalizedPath, v any) any {
	if len(path) == 0 {
		return v
	}
	switch sel := path[0].(type) {
	case spec.Name:
		if m, ok := doc.(map[string]any); ok {
			m[string(sel)] = setAt(m[string(sel)], path[1:], v)
		}
	case spec.Index:
		if a, ok := doc.([]any); ok && int(sel) < len(a) {
			a[sel] = setAt(a[sel], path[1:], v)
		}
	}
	return doc
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// firstDiff finds the first place a and b differ, keys in order, and
// names it as a JSONPath from path.
func firstDiff(a, b any, path string) (string, any, any, bool) {
	at, x, y, d := diffAt(a, b, nil)
	if !d {
		return "", nil, nil, false
	}
	for _, step := range at {
		switch s := step.(type) {
		case int:
			path += fmt.Sprintf("[%d]", s)
		case string:
			path += "." + s
		}
	}
	return path, x, y, true
}

// diffAt finds the first place a and b differ, keys in order: the steps
// to it from at (member names and array indexes), and the two values.
func diffAt(a, b any, at []any) ([]any, any, any, bool) {
	switch ta := a.(type) {
	case map[string]any:
		tb, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range ta {
			keys[k] = true
		}
		for k := range tb {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			if p, x, y, d := diffAt(ta[k], tb[k], append(at[:len(at):len(at)], k)); d {
				return p, x, y, true
			}
		}
		return nil, nil, nil, false
	case []any:
		tb, ok := b.([]any)
		if !ok || len(ta) != len(tb) {
			break
		}
		for i := range ta {
			if p, x, y, d := diffAt(ta[i], tb[i], append(at[:len(at):len(at)], i)); d {
				return p, x, y, true
			}
		}
		return nil, nil, nil, false
	}
	if reflect.DeepEqual(a, b) {
		return nil, nil, nil, false
	}
	return at, a, b, true
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
			if p, w, g, d := firstDiff(x.doc, y.doc, "$"); d {
				return &Failure{Step: i + 1, What: fmt.Sprintf("%s vs %s at %s", a.Revision, b.Revision, p), Expected: show(w), Actual: show(g)}
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
