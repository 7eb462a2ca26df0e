package suite

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// writeAndReadBack saves a call whose argument and result hold text as a
// test, then reads the suite and its snapshot back: the argument and the
// result must come back as they were.
func writeAndReadBack(t *testing.T, dir, text string) {
	t.Helper()
	result := map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}
	d, err := BuildTest("saved", SessionStep{Kind: StepCall, Target: "echo", Era: "2025-11-25",
		Args: map[string]any{"message": text}, Result: result})
	if err != nil {
		t.Skipf("not saved: %v", err) // text the runner would read as a capture
	}
	file := filepath.Join(dir, "rt.mcpeek.yaml")
	_ = os.Remove(file)
	_ = os.Remove(SnapshotPath(file))
	if err := WriteTest(file, d, WriteOptions{}); err != nil {
		t.Fatalf("WriteTest(%q): %v", text, err)
	}
	s, err := Load(file, func(string) (string, bool) { return "", true })
	if err != nil {
		t.Fatalf("the suite written for %q does not load: %v", text, err)
	}
	defer s.Cleanup()
	raw, _ := os.ReadFile(file)
	var doc struct {
		Tests []struct {
			Steps []struct {
				Args map[string]string `yaml:"args"`
			} `yaml:"steps"`
		} `yaml:"tests"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil || len(doc.Tests) != 1 || doc.Tests[0].Steps[0].Args["message"] != text {
		t.Fatalf("the argument %q reads back as %+v (%v):\n%s", text, doc, err, raw)
	}
	sn := loadSnapshots(s)
	if sn.loadErr != nil {
		snap, _ := os.ReadFile(sn.path)
		t.Fatalf("the snapshot of %q does not load: %v\n%s", text, sn.loadErr, snap)
	}
	if got := sn.stored["saved"]; !reflect.DeepEqual(got, result) {
		t.Fatalf("the snapshot of %q reads back as %#v", text, got)
	}
}

// server-everything's trigger-elicitation-request answers with a text
// block that begins with a line break; go.yaml.in/yaml/v3 writes such a
// string as a block scalar it cannot read again ("did not find expected
// key").
func TestSavedTextBeginningWithALineBreakLoadsBack(t *testing.T) {
	t.Parallel()
	writeAndReadBack(t, t.TempDir(), "\nElicitation completed: Action: accept\n\n  name: Ann\n")
}

// Whatever text a result or an argument holds, the suite and the
// snapshot mcpeek writes for it load back equal.
func FuzzSavedTestLoadsBack(f *testing.F) {
	for _, s := range []string{"\n", "\nx", " lead", "trail ", "a\n\n b", "\t\n", "# c", "- a", ": x", "\u2028", "\r\n", "null", "'\"", "\ufeff"} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			t.Skip("JSON text is UTF-8")
		}
		writeAndReadBack(t, dir, text)
	})
}
