package suite

import (
	"fmt"
	"os"

	"github.com/mcpeek/mcpeek/internal/safefile"
)

// WriteTests writes the drafts to the suite file in order, all or none:
// when one cannot be written, the suite file and its snapshots are put
// back as they were, and the error says which draft failed.
func WriteTests(file string, ds []*Draft, opts WriteOptions) error {
	var undo []func()
	for _, path := range []string{file, SnapshotPath(file)} {
		u, err := saved(path)
		if err != nil {
			return err
		}
		undo = append(undo, u)
	}
	for i, d := range ds {
		if err := WriteTest(file, d, opts); err != nil {
			for _, u := range undo {
				u()
			}
			return &WriteTestsError{Index: i, Name: d.Name, Err: err}
		}
	}
	return nil
}

// WriteTestsError is the draft WriteTests could not write; none was.
type WriteTestsError struct {
	Index int
	Name  string
	Err   error
}

func (e *WriteTestsError) Error() string {
	return fmt.Sprintf("the test %q: %v (no test was written)", e.Name, e.Err)
}

func (e *WriteTestsError) Unwrap() error { return e.Err }

// saved reads a file so that what is returned puts it back as it is now
// (removes it when it does not exist).
func saved(path string) (func(), error) {
	old, err := safefile.Read(path)
	switch {
	case os.IsNotExist(err):
		return func() { _ = os.Remove(path) }, nil
	case err != nil:
		return nil, err
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	return func() { _ = writeAtomic(path, old, mode) }, nil
}
