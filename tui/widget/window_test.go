package widget

import "testing"

// The selected row shows whatever the height; the window stays within the
// rows; the position line says which show, and nothing when all do.
func TestWindowKeepsTheSelectionVisible(t *testing.T) {
	for _, tc := range []struct {
		name                string
		selected, n, height int
		wantFirst, wantEnd  int
		wantPosition        string
	}{
		{"all fit", 3, 5, 10, 0, 5, ""},
		{"exactly fit", 4, 5, 5, 0, 5, ""},
		{"top", 0, 8, 3, 0, 3, "1–3 of 8"},
		{"last selected", 7, 8, 3, 5, 8, "6–8 of 8"},
		{"middle", 4, 8, 3, 2, 5, "3–5 of 8"},
		{"one line", 5, 8, 1, 5, 6, "6–6 of 8"},
		{"no room still shows the selection", 5, 8, 0, 5, 6, "6–6 of 8"},
		{"negative room", 5, 8, -3, 5, 6, "6–6 of 8"},
		{"cursor past the end is the last", 12, 8, 3, 5, 8, "6–8 of 8"},
		{"negative cursor is the first", -1, 8, 3, 0, 3, "1–3 of 8"},
		{"no rows", 0, 0, 3, 0, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first, end := Window(tc.selected, tc.n, tc.height)
			if first != tc.wantFirst || end != tc.wantEnd {
				t.Errorf("Window(%d, %d, %d) = %d, %d; want %d, %d", tc.selected, tc.n, tc.height, first, end, tc.wantFirst, tc.wantEnd)
			}
			if tc.n > 0 {
				sel := Clamp(tc.selected, tc.n)
				if sel < first || sel >= end {
					t.Errorf("the selected row %d is not in [%d, %d)", sel, first, end)
				}
			}
			if got := Position(first, end, tc.n); got != tc.wantPosition {
				t.Errorf("Position = %q, want %q", got, tc.wantPosition)
			}
		})
	}
}

func TestClamp(t *testing.T) {
	for _, tc := range []struct{ cursor, n, want int }{{0, 0, 0}, {-1, 3, 0}, {3, 3, 2}, {1, 3, 1}, {5, 0, 0}} {
		if got := Clamp(tc.cursor, tc.n); got != tc.want {
			t.Errorf("Clamp(%d, %d) = %d, want %d", tc.cursor, tc.n, got, tc.want)
		}
	}
}
