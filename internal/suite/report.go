// Reports of a run: lines for a person, JUnit XML, a versioned JSON
// report, and GitHub Actions annotations with a step summary.

package suite

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/jstemmer/go-junit-report/v2/junit"
	"github.com/mcpeek/mcpeek/internal/cireport"
	"github.com/mcpeek/mcpeek/internal/textclean"
)

// WriteText writes one line per test and revision, each failure under
// its test with what was expected and what came.
func WriteText(w io.Writer, r *Report) {
	for _, s := range r.Suites {
		if s.Skipped != "" {
			fmt.Fprintf(w, "skip %-10s %s: %s\n", s.Revision, s.File, terminalLine(s.Skipped))
		}
		for _, t := range s.Tests {
			mark := map[string]string{StatusPassed: "ok  ", StatusFailed: "FAIL", StatusSkipped: "skip"}[t.Status]
			fmt.Fprintf(w, "%s %-10s %s:%d %s", mark, s.Revision, t.File, t.Line, terminalLine(t.Name))
			if t.Status != StatusSkipped && s.Revision != ParityRevision {
				fmt.Fprintf(w, " (%dms)", t.Millis)
			}
			if t.Skipped != "" {
				fmt.Fprintf(w, ": %s", terminalLine(t.Skipped))
			}
			fmt.Fprintln(w)
			for _, b := range t.Explored {
				fmt.Fprintf(w, "     step %d: explore %s: %s\n", b.Step, b.Policy, terminalLine(textclean.Cut(b.Ended, 200, textclean.InBytes())))
			}
			for _, f := range t.Failures {
				fmt.Fprintf(w, "     %s:%d: %s\n", t.File, f.Line, terminalLine(f.String()))
			}
		}
	}
	passed, failed, skipped := r.Counts()
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", passed, failed, skipped)
}

// jsonReport is the --json report; Version changes when its meaning does.
type jsonReport struct {
	Version int            `json:"version"`
	Passed  int            `json:"passed"`
	Failed  int            `json:"failed"`
	Skipped int            `json:"skipped"`
	Suites  []*SuiteResult `json:"suites"`
}

// WriteJSON writes the versioned JSON report. DEL and the C1 controls,
// which encoding/json leaves raw, are written as \u escapes
// (textclean.EscapeJSON): the text reads back as the server wrote it, and
// no terminal or CI log showing the file obeys them.
func WriteJSON(w io.Writer, r *Report) error {
	passed, failed, skipped := r.Counts()
	out := jsonReport{Version: 1, Passed: passed, Failed: failed, Skipped: skipped, Suites: r.Suites}
	if out.Suites == nil {
		out.Suites = []*SuiteResult{}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(textclean.EscapeJSON(b), '\n'))
	return err
}

// The JUnit types with the file and line a test case is written at, which
// junit.Testcase lacks; the rest is go-junit-report's.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr,omitempty"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	junit.Testsuite
	Testcases []junitCase `xml:"testcase,omitempty"`
}

type junitCase struct {
	junit.Testcase
	File string `xml:"file,attr,omitempty"`
	Line int    `xml:"line,attr,omitempty"`
}

// WriteJUnit writes one <testsuite> per file and revision (and one per
// file for era parity), one <testcase> per test with its file and line, a
// <failure> with each expectation it missed, and the failing step's
// traffic in <system-out>. Every text, attributes included, passes
// cireport.XMLText: no control character of a server's or a suite's
// reaches the file, DEL and C1 among them.
func WriteJUnit(w io.Writer, r *Report) error {
	out := junitSuites{}
	for i, s := range r.Suites {
		file, class := cireport.XMLText(s.File), cireport.XMLText(s.File+" ["+s.Revision+"]")
		js := junitSuite{Testsuite: junit.Testsuite{Name: class, ID: i, File: file, Package: cireport.XMLText(s.Revision)}}
		total := 0.0
		if s.Skipped != "" {
			tc := junit.Testcase{Name: cireport.XMLText("(revision " + s.Revision + ")"), Classname: js.Name, Time: seconds(0),
				Skipped: &junit.Result{Message: cireport.XMLText(textclean.Cut(s.Skipped, 500, textclean.InBytes()))}}
			js.Tests++
			js.Skipped++
			js.Testcases = append(js.Testcases, junitCase{Testcase: tc, File: file})
		}
		for _, t := range s.Tests {
			tc := junit.Testcase{Name: cireport.XMLText(t.Name), Classname: class, Time: seconds(t.Millis)}
			total += float64(t.Millis) / 1000
			switch t.Status {
			case StatusSkipped:
				tc.Skipped = &junit.Result{Message: "skip: true"}
				if t.Skipped != "" {
					tc.Skipped.Message = cireport.XMLText(textclean.Cut(t.Skipped, 500, textclean.InBytes()))
				}
				js.Skipped++
			case StatusFailed:
				lines := make([]string, len(t.Failures))
				for i, f := range t.Failures {
					lines[i] = fmt.Sprintf("%s:%d: %s", t.File, f.Line, f.String())
				}
				tc.Failure = &junit.Result{Message: cireport.XMLText(textclean.Cut(t.Failures[0].String(), 500, textclean.InBytes())), Type: "expectation", Data: cireport.XMLText(strings.Join(lines, "\n"))}
				if t.Wire != "" {
					tc.SystemOut = &junit.Output{Data: cireport.XMLText(t.Wire)}
				}
				js.Failures++
			}
			js.Tests++
			js.Testcases = append(js.Testcases, junitCase{Testcase: tc, File: cireport.XMLText(t.File), Line: t.Line})
		}
		js.Time = fmt.Sprintf("%.3f", total)
		out.Tests += js.Tests
		out.Failures += js.Failures
		out.Skipped += js.Skipped
		out.Suites = append(out.Suites, js)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "\t")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }

// WriteGitHub writes a GitHub Actions error annotation per failed
// expectation.
func WriteGitHub(w io.Writer, r *Report) {
	for _, s := range r.Suites {
		for _, t := range s.Tests {
			for _, f := range t.Failures {
				title := fmt.Sprintf("%s [%s]", t.Name, s.Revision)
				fmt.Fprintf(w, "::error file=%s,line=%d,title=%s::%s\n", cireport.EscapeProperty(t.File), f.Line, cireport.EscapeProperty(terminalLine(title)), cireport.Escape(terminalLine(f.String())))
			}
		}
	}
}

// WriteGitHubSummary writes the run as a Markdown table for
// $GITHUB_STEP_SUMMARY, each cell plain text (cireport.MarkdownCell).
func WriteGitHubSummary(w io.Writer, r *Report) {
	passed, failed, skipped := r.Counts()
	fmt.Fprintf(w, "### mcpeek test: %d passed, %d failed, %d skipped\n\n", passed, failed, skipped)
	fmt.Fprintln(w, "| | test | revision | file | failure |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- |")
	for _, s := range r.Suites {
		if s.Skipped != "" {
			fmt.Fprintf(w, "| ⏭️ | (every test) | %s | %s | %s |\n", cireport.MarkdownCell(s.Revision), cireport.MarkdownCell(s.File), cireport.MarkdownCell(textclean.Cut(s.Skipped, 300, textclean.InBytes())))
		}
		for _, t := range s.Tests {
			mark := map[string]string{StatusPassed: "✅", StatusFailed: "❌", StatusSkipped: "⏭️"}[t.Status]
			// Every failure of the test, one a line: the first is often
			// not the one that tells why.
			failures := make([]string, 0, len(t.Failures)+1)
			for _, f := range t.Failures {
				failures = append(failures, cireport.MarkdownCell(textclean.Cut(f.String(), 300, textclean.InBytes())))
			}
			if t.Skipped != "" {
				failures = append(failures, cireport.MarkdownCell(textclean.Cut(t.Skipped, 300, textclean.InBytes())))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s:%d | %s |\n", mark, cireport.MarkdownCell(t.Name), cireport.MarkdownCell(s.Revision), cireport.MarkdownCell(t.File), t.Line, strings.Join(failures, "<br>"))
		}
	}
}

// terminalLine is text that may quote the server (a result's text, a
// protocol error's message) made one line that is safe to print: no
// escape sequence of the server's reaches the reader's terminal or the
// Actions log. The JSON report keeps the text as it came, its encoder
// escaping it; JUnit keeps it as XML can hold it (cireport.XMLText).
func terminalLine(s string) string { return textclean.OneLine(s) }
