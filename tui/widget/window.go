// The one scroll rule of every list: which rows show in a given height so
// that the selected one is among them, and the line that says which.

package widget

import "fmt"

// Window is the rows [first, end) of n rows that show in height lines with
// the selected row among them, whatever the height (at least one row
// shows). The window does not run past the last row while rows above it
// are hidden, and a selected row out of range is taken as the nearest.
func Window(selected, n, height int) (first, end int) {
	if n <= 0 {
		return 0, 0
	}
	height = max(height, 1)
	selected = min(max(selected, 0), n-1)
	first = min(max(selected-height+1, 0), max(n-height, 0))
	return first, min(first+height, n)
}

// Position says which of n rows show: "41–60 of 300", or "" when all do.
func Position(first, end, n int) string {
	if first <= 0 && end >= n {
		return ""
	}
	return fmt.Sprintf("%d–%d of %d", first+1, end, n)
}

// Clamp is a cursor over n rows made valid: within [0, n-1], 0 when there
// are none.
func Clamp(cursor, n int) int { return max(min(cursor, n-1), 0) }
