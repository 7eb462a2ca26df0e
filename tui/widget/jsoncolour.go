package widget

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
)

// JSONStyles colour JSON in the panes: keys, strings and other literals.
type JSONStyles struct{ Key, Str, Lit lipgloss.Style }

// ColourJSON colours text that is JSON (already cleaned of control
// characters), token by token, and leaves any other text as it is. Colour
// follows the terminal (none with NO_COLOR or without one), and the text
// is unchanged but for the colour.
func (s Styles) ColourJSON(text string) string {
	t := strings.TrimSpace(text)
	if t == "" || (t[0] != '{' && t[0] != '[') || !json.Valid([]byte(t)) {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '"':
			end := stringEnd(text, i)
			tok := text[i:end]
			j := end
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			if j < len(text) && text[j] == ':' {
				b.WriteString(s.JSON.Key.Render(tok))
			} else {
				b.WriteString(s.JSON.Str.Render(tok))
			}
			i = end
		case c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n':
			end := i
			for end < len(text) && strings.IndexByte(",]} \n\t", text[end]) < 0 {
				end++
			}
			b.WriteString(s.JSON.Lit.Render(text[i:end]))
			i = end
		default:
			_, size := utf8.DecodeRuneInString(text[i:])
			b.WriteString(text[i : i+size])
			i += size
		}
	}
	return b.String()
}

// stringEnd is the index just past the JSON string that starts at i.
func stringEnd(text string, i int) int {
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(text)
}
