package surface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/jstemmer/go-junit-report/v2/junit"
	"github.com/mcpeek/mcpeek/internal/cireport"
	"github.com/mcpeek/mcpeek/internal/textclean"
)

// ReportVersion is the version of the JSON report's format.
const ReportVersion = 1

// Formats are the report formats, the first the default.
var Formats = []string{"text", "json", "markdown", "junit", "githubactions"}

// Side is one side of a diff as the report names it: a surface file (File
// and its Data, for the lines of findings) or a live server.
type Side struct {
	Label string
	File  string
	Data  []byte
}

// Report is the outcome of a diff.
type Report struct {
	Old, New Side
	// FailOn is the level at or above which a finding fails the gate; ""
	// fails on none (--fail-on never).
	FailOn   Level
	Findings []Finding
}

// Failed reports whether a finding at or above FailOn stands.
func (r *Report) Failed() bool { return len(Failing(r.Findings, r.FailOn)) > 0 }

// Write writes the report in format (one of [Formats]).
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "", "text":
		return r.text(w)
	case "json":
		return r.json(w)
	case "markdown":
		return r.markdown(w)
	case "junit":
		return r.junit(w)
	case "githubactions":
		return r.githubActions(w)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

func (r *Report) failOn() string {
	if r.FailOn == "" {
		return "never"
	}
	return string(r.FailOn)
}

// Summary is the counts in words: "2 ERR, 1 WARN, 3 INFO, 1 accepted".
func (c Counts) Summary() string {
	var parts []string
	for _, p := range []struct {
		n    int
		name string
	}{{c.ERR, "ERR"}, {c.WARN, "WARN"}, {c.INFO, "INFO"}, {c.Accepted, "accepted"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.name))
		}
	}
	if len(parts) == 0 {
		return "no differences"
	}
	return strings.Join(parts, ", ")
}

// note is what a finding's acceptance says, if anything.
func (f *Finding) note() string {
	switch {
	case f.Accepted != nil:
		return fmt.Sprintf("accepted until %s: %s", f.Accepted.Until, f.Accepted.Reason)
	case f.Expired != nil:
		return fmt.Sprintf("its acceptance expired on %s (%s)", f.Expired.Until, f.Expired.Reason)
	}
	return ""
}

// group is the findings of one level, or the accepted ones.
type group struct {
	name     string
	findings []Finding
}

// groups are the findings by level, then the accepted ones.
func (r *Report) groups() []group {
	var out []group
	for _, l := range Levels {
		g := group{name: string(l)}
		for _, f := range r.Findings {
			if f.Accepted == nil && f.Level == l {
				g.findings = append(g.findings, f)
			}
		}
		out = append(out, g)
	}
	acc := group{name: "accepted"}
	for _, f := range r.Findings {
		if f.Accepted != nil {
			acc.findings = append(acc.findings, f)
		}
	}
	return append(out, acc)
}

func (r *Report) text(w io.Writer) error {
	fmt.Fprintf(w, "%s → %s: %s\n", textclean.OneLine(r.Old.Label), textclean.OneLine(r.New.Label), Count(r.Findings).Summary())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, g := range r.groups() {
		if len(g.findings) == 0 {
			continue
		}
		fmt.Fprintf(tw, "\n%s (%d)\n", g.name, len(g.findings))
		for _, f := range g.findings {
			text := fmt.Sprintf("  %s\t%s\t%s", f.ID, textclean.OneLine(f.Where()), textclean.OneLine(f.Message))
			if n := f.note(); n != "" {
				text += " — " + textclean.OneLine(n)
			}
			fmt.Fprintln(tw, text)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Failed() {
		_, err := fmt.Fprintf(w, "\nfailed: findings at or above %s\n", r.FailOn)
		return err
	}
	return nil
}

// jsonReport is the JSON report, versioned.
type jsonReport struct {
	Version  int       `json:"version"`
	Old      string    `json:"old"`
	New      string    `json:"new"`
	FailOn   string    `json:"failOn"`
	Failed   bool      `json:"failed"`
	Counts   Counts    `json:"counts"`
	Findings []Finding `json:"findings"`
}

func (r *Report) json(w io.Writer) error {
	fs := r.Findings
	if fs == nil {
		fs = []Finding{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(jsonReport{Version: ReportVersion, Old: r.Old.Label, New: r.New.Label, FailOn: r.failOn(),
		Failed: r.Failed(), Counts: Count(r.Findings), Findings: fs}); err != nil {
		return err
	}
	_, err := w.Write(textclean.EscapeJSON(b.Bytes())) // DEL and C1 as \u00XX
	return err
}

// mdCode is text in a Markdown code span, where nothing of it is markup;
// text holding a backtick, which would end the span, is plain text in its
// place (cireport.MarkdownCell).
func mdCode(s string) string {
	if s = textclean.OneLine(s); strings.Contains(s, "`") {
		return cireport.MarkdownCell(s)
	}
	return "`" + s + "`"
}

func (r *Report) markdown(w io.Writer) error {
	b := &strings.Builder{}
	verdict := "passes"
	if r.Failed() {
		verdict = "fails (findings at or above " + string(r.FailOn) + ")"
	}
	fmt.Fprintf(b, "### MCP surface: %s\n\n%s → %s: the gate %s.\n", Count(r.Findings).Summary(),
		mdCode(r.Old.Label), mdCode(r.New.Label), verdict)
	if len(r.Findings) > 0 {
		b.WriteString("\n| level | rule | where | what a client notices |\n| --- | --- | --- | --- |\n")
		for _, g := range r.groups() {
			for _, f := range g.findings {
				msg := cireport.MarkdownCell(f.Message)
				if n := f.note(); n != "" {
					msg += " *(" + cireport.MarkdownCell(n) + ")*"
				}
				fmt.Fprintf(b, "| %s | `%s` | %s | %s |\n", g.name, f.ID, cireport.MarkdownCell(f.Where()), msg)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) junit(w io.Writer) error {
	min := r.FailOn
	if min == "" {
		min = ERR
	}
	suite := junit.Testsuite{Name: "mcpeek diff", Time: "0"}
	for _, f := range r.Findings {
		if !f.Level.AtLeast(min) {
			continue
		}
		tc := junit.Testcase{Name: cireport.XMLText(f.ID + " " + f.Where()), Classname: "mcpeek.surface"}
		switch {
		case f.Accepted != nil:
			tc.Skipped = &junit.Result{Message: cireport.XMLText(f.note())}
		case r.FailOn == "":
			tc.SystemOut = &junit.Output{Data: cireport.XMLText(f.Message)}
		default:
			data := f.Message
			if n := f.note(); n != "" {
				data += "\n" + n
			}
			tc.Failure = &junit.Result{Message: cireport.XMLText(f.Message), Type: string(f.Level), Data: cireport.XMLText(data)}
		}
		suite.AddTestcase(tc)
	}
	if len(suite.Testcases) == 0 {
		suite.AddTestcase(junit.Testcase{Name: "no findings at or above " + string(min), Classname: "mcpeek.surface"})
	}
	var all junit.Testsuites
	all.AddSuite(suite)
	return all.WriteXML(w)
}

func (r *Report) githubActions(w io.Writer) error {
	type file struct {
		name string
		idx  *lineIndex
	}
	var files []file
	for _, s := range []Side{r.Old, r.New} {
		if s.File != "" {
			if idx := indexLines(s.Data); idx != nil {
				files = append(files, file{s.File, idx})
			}
		}
	}
	b := &strings.Builder{}
	for i := range r.Findings {
		f := &r.Findings[i]
		cmd := map[Level]string{ERR: "error", WARN: "warning", INFO: "notice"}[f.Level]
		if f.Accepted != nil {
			cmd = "notice"
		}
		props := []string{}
		file, line := "", 0
		for j, fl := range files {
			l, exact := fl.idx.line(f)
			if j == 0 || exact {
				file, line = fl.name, l
			}
			if exact {
				break
			}
		}
		if file != "" {
			props = append(props, "file="+cireport.EscapeProperty(file), fmt.Sprintf("line=%d", line))
		}
		props = append(props, "title="+cireport.EscapeProperty(f.ID+" ("+textclean.OneLine(f.Where())+")"))
		msg := f.Message
		if n := f.note(); n != "" {
			msg += " — " + n
		}
		fmt.Fprintf(b, "::%s %s::%s\n", cmd, strings.Join(props, ","), cireport.Escape(textclean.OneLine(msg)))
	}
	fmt.Fprintf(b, "%s → %s: %s\n", textclean.OneLine(r.Old.Label), textclean.OneLine(r.New.Label), Count(r.Findings).Summary())
	_, err := io.WriteString(w, b.String())
	return err
}
