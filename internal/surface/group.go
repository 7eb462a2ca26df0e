package surface

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// groupBehindTemplates folds the removals of the resources a removed
// template covers into one finding on the template that lists them: a
// hundred resources gone with the template that made them are one change,
// not a hundred. A removal a config's acceptance holds, or held, stays on
// its own, as it was accepted.
func groupBehindTemplates(fs []Finding, cfg *Config, now time.Time) []Finding {
	grouped := map[int]bool{}
	var groups []Finding
	for _, t := range fs {
		if t.ID != "template-removed" || t.Template == "" {
			continue
		}
		re, err := templateRegexp(t.Template)
		if err != nil {
			continue
		}
		var uris []string
		var at []int
		for i, f := range fs {
			if f.ID == "resource-removed" && f.Resource != "" && f.Accepted == nil && f.Expired == nil &&
				!grouped[i] && re.MatchString(f.Resource) {
				uris = append(uris, f.Resource)
				at = append(at, i)
			}
		}
		if len(uris) < 2 {
			continue
		}
		for _, i := range at {
			grouped[i] = true
		}
		slices.SortFunc(uris, naturalCompare)
		g := finding("resource-removed", "", fmt.Sprintf("the %d resources of the removed template are gone: a client reading them fails: %s",
			len(uris), strings.Join(uris, ", ")))
		g.Template, g.list = t.Template, "resourceTemplates"
		groups = append(groups, g)
	}
	if len(groups) == 0 {
		return fs
	}
	cfg.apply(groups, now)
	out := slices.Concat(groups, fs)
	kept := out[:0]
	for i, f := range out {
		if i < len(groups) || !grouped[i-len(groups)] {
			kept = append(kept, f)
		}
	}
	return kept
}

// templateRegexp matches the URIs an RFC 6570 URI template expands to:
// a simple expression ({id}) is one segment, a reserved or fragment one
// ({+path}, {#f}) anything, the others (a query, a path, …) what their
// operator starts.
func templateRegexp(t string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for t != "" {
		open := strings.IndexByte(t, '{')
		if open < 0 {
			b.WriteString(regexp.QuoteMeta(t))
			break
		}
		end := strings.IndexByte(t[open:], '}')
		if end < 0 {
			return nil, fmt.Errorf("unclosed expression in %q", t)
		}
		b.WriteString(regexp.QuoteMeta(t[:open]))
		expr := t[open+1 : open+end]
		op := ""
		if expr != "" {
			op = expr[:1]
		}
		switch op {
		case "+", "#":
			b.WriteString(`.*`)
		case "?", "&":
			b.WriteString(`(?:[?&].*)?`)
		case ".", "/", ";":
			b.WriteString(`(?:` + regexp.QuoteMeta(op) + `.*)?`)
		default:
			b.WriteString(`[^/?#]*`)
		}
		t = t[open+end+1:]
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// naturalCompare orders strings with their runs of digits as numbers:
// resource/2 before resource/10.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, _ := strconv.ParseUint(a[:da], 10, 64)
			nb, _ := strconv.ParseUint(b[:db], 10, 64)
			if c := cmp.Compare(na, nb); c != 0 {
				return c
			}
			if c := cmp.Compare(a[:da], b[:db]); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitRun is the length of the run of ASCII digits s begins with.
func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
