package widget

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/tui/keys"
)

func keyOf(name string) tea.KeyMsg {
	switch name {
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

func rowsOf(n int) []Row {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("row %02d", i)
	}
	return Names(names)
}

// The cursor is always on a row: it stops at the ends, and stays on one
// when the rows grow fewer.
func TestListCursorIsValidByConstruction(t *testing.T) {
	var l List
	l.Move(3)
	if l.Cursor() != 0 {
		t.Errorf("an empty list's cursor moved to %d", l.Cursor())
	}
	l.SetLen(5)
	l.Move(-1)
	if l.Cursor() != 0 {
		t.Errorf("up from the first row: %d, want 0", l.Cursor())
	}
	l.Move(10)
	if l.Cursor() != 4 {
		t.Errorf("down past the last row: %d, want 4", l.Cursor())
	}
	l.SetLen(2)
	if l.Cursor() != 1 {
		t.Errorf("after the rows fell to 2: %d, want 1", l.Cursor())
	}
	l.SetLen(0)
	if l.Cursor() != 0 {
		t.Errorf("no rows: %d, want 0", l.Cursor())
	}
	l.Place(7, 3)
	if l.Cursor() != 2 || l.Len() != 3 {
		t.Errorf("Place(7, 3): cursor %d of %d, want 2 of 3", l.Cursor(), l.Len())
	}
}

// The tabs' keys move the cursor over the rows; / starts a filter, whose
// text is typed, erased, kept with enter and dropped with esc.
func TestListKeysAndFilter(t *testing.T) {
	k := keys.NewMap()
	var l List
	for _, name := range []string{"down", "down", "j", "up"} {
		l.Update(keyOf(name), k, 5)
	}
	if l.Cursor() != 2 {
		t.Errorf("after ↓ ↓ j ↑: cursor %d, want 2", l.Cursor())
	}
	for _, name := range []string{"/", "q", "x", "backspace"} {
		l.Update(keyOf(name), k, 5)
	}
	if l.Filter() != "q" || !l.Filtering() || l.Cursor() != 0 {
		t.Errorf("filter %q, filtering %v, cursor %d; want q, typing, 0", l.Filter(), l.Filtering(), l.Cursor())
	}
	if !l.Matches("A Quiet row") || l.Matches("row") {
		t.Error("the filter q matches by case-blind substring")
	}
	l.Update(keyOf("enter"), k, 5)
	if l.Filter() != "q" || l.Filtering() {
		t.Errorf("enter: filter %q, filtering %v; want q kept, done", l.Filter(), l.Filtering())
	}
	l.Update(keyOf("/"), k, 5)
	l.Update(keyOf("esc"), k, 5)
	if l.Filter() != "" || l.Filtering() {
		t.Errorf("esc: filter %q, filtering %v; want none", l.Filter(), l.Filtering())
	}
}

// Rows shows the selected row whatever the height, marked, and under the
// rows a position line when not all of them show; none when all do.
func TestListRowsKeepTheSelectionVisible(t *testing.T) {
	c := NewCommon(keys.NewMap())
	for _, tc := range []struct {
		name         string
		n, cursor, h int
		wantLines    int
		wantPos      string
		wantFirstRow string
	}{
		{"all fit", 5, 4, 10, 5, "", "row 00"},
		{"the last selected", 30, 29, 6, 6, "26–30 of 30", "row 25"},
		{"the first selected", 30, 0, 6, 6, "1–5 of 30", "row 00"},
		{"in the middle", 30, 14, 6, 6, "11–15 of 30", "row 10"},
		{"two lines", 30, 29, 2, 2, "30–30 of 30", "row 29"},
		{"one line: the row, no position", 30, 29, 1, 1, "", "row 29"},
		{"no room: still the row", 30, 29, 0, 1, "", "row 29"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l List
			l.Place(tc.cursor, tc.n)
			out := ansi.Strip(l.Rows(&c, rowsOf(tc.n), 40, tc.h))
			lines := strings.Split(out, "\n")
			if len(lines) != tc.wantLines {
				t.Errorf("%d lines, want %d:\n%s", len(lines), tc.wantLines, out)
			}
			if want := fmt.Sprintf("> row %02d", tc.cursor); !strings.Contains(out, want) {
				t.Errorf("the selected row %q does not show:\n%s", want, out)
			}
			if !strings.Contains(lines[0], tc.wantFirstRow) {
				t.Errorf("the first line is %q, want %q", lines[0], tc.wantFirstRow)
			}
			last := strings.TrimSpace(lines[len(lines)-1])
			if tc.wantPos != "" && last != tc.wantPos {
				t.Errorf("the last line is %q, want the position %q", last, tc.wantPos)
			}
			if tc.wantPos == "" && strings.Contains(out, " of ") {
				t.Errorf("a position line where none belongs:\n%s", out)
			}
		})
	}
}

// A blurred list marks no row; focused again, it marks the cursor's.
func TestListBlur(t *testing.T) {
	c := NewCommon(keys.NewMap())
	var l List
	l.Place(1, 3)
	l.Blur()
	if out := ansi.Strip(l.Rows(&c, rowsOf(3), 40, 5)); strings.Contains(out, ">") {
		t.Errorf("a blurred list marks a row:\n%s", out)
	}
	l.Focus()
	if out := ansi.Strip(l.Rows(&c, rowsOf(3), 40, 5)); !strings.Contains(out, "> row 01") {
		t.Errorf("the focused list does not mark its cursor:\n%s", out)
	}
}

// View puts the filter line over the rows, "(none)" under it when there
// are none, and a failure under what arrived.
func TestListView(t *testing.T) {
	c := NewCommon(keys.NewMap())
	var l List
	if out := ansi.Strip(l.View(&c, nil, nil, 40, 5)); out != "/ filter\n(none)" {
		t.Errorf("empty list: %q", out)
	}
	out := ansi.Strip(l.View(&c, rowsOf(10), fmt.Errorf("tools/list: broken"), 40, 6))
	if lines := strings.Split(out, "\n"); len(lines) > 6 || !strings.Contains(out, "error: tools/list: broken") || !strings.Contains(out, "> row 00") {
		t.Errorf("a failed list in 6 lines:\n%s", out)
	}
}
