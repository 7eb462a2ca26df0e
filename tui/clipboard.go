package tui

import (
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// statusMsg is what a copy or a save did, for the footer's status line
// until the next key.
type statusMsg struct {
	text string
	err  bool
}

// line is the footer's status line, or "".
func (s statusMsg) line(st widget.Styles) string {
	switch {
	case s.text == "":
		return ""
	case s.err:
		return st.Err.Render(s.text)
	}
	return st.OK.Render(s.text)
}

// paneCopy is the text of the current tab's pane as it would be copied
// or saved: unwrapped, without styling, with secrets redacted as shown. On
// the Log tab's list it is the message under the cursor, as enter would
// show it.
func (m *Model) paneCopy() (string, bool) {
	var text string
	if c, ok := m.current().(page.Copier); ok {
		text = c.Copy()
	} else {
		text = ansi.Strip(widget.Redact(m.paneText()))
	}
	return text, strings.TrimSpace(text) != ""
}

func nothingToCopy() tea.Msg {
	return statusMsg{"nothing to copy here: enter opens an entry", true}
}

// copyPane puts the pane's text on the clipboard with OSC 52, which the
// terminal (not mcpeek) carries out, over SSH too. The terminal must
// support it: many do, some only once allowed, and some ignore it.
//
// The sequence must reach the program's own output, in order with what
// the renderer draws. Bubble Tea's Exec is the command that writes there:
// it pauses the renderer for the write and repaints after. The price is a
// blink: the terminal leaves the alternate screen for the moment of the
// write.
func (m *Model) copyPane() tea.Cmd {
	text, ok := m.paneCopy()
	if !ok {
		return nothingToCopy
	}
	return copyText(text, bytesText(len(text)))
}

// copyText puts text on the clipboard with OSC 52, as copyPane does; the
// status line says what was copied.
func copyText(text, what string) tea.Cmd {
	return tea.Exec(&osc52Write{seq: osc52(text)}, func(err error) tea.Msg {
		if err != nil {
			return statusMsg{"copy failed: " + err.Error(), true}
		}
		return statusMsg{fmt.Sprintf("copied %s with OSC 52 (if the terminal supports it)", what), false}
	})
}

// osc52 is the sequence that asks the terminal to put text on the
// clipboard.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a"
}

// osc52Write writes a sequence to the program's output, as a
// [tea.ExecCommand].
type osc52Write struct {
	seq string
	out io.Writer
}

func (c *osc52Write) Run() error {
	if c.out == nil {
		return fmt.Errorf("no terminal to write to")
	}
	_, err := io.WriteString(c.out, c.seq)
	return err
}

func (c *osc52Write) SetStdin(io.Reader)    {}
func (c *osc52Write) SetStdout(w io.Writer) { c.out = w }
func (c *osc52Write) SetStderr(io.Writer)   {}

// bytesText says how long a text is.
func bytesText(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f kB", float64(n)/1024)
}

// askSave opens the save prompt (tui/layer) for the pane's text,
// suggesting a name from the tab; on the Resources tab, for a binary
// resource read, its bytes as they are (decoded from base64), named after
// its URI.
func (m *Model) askSave() tea.Cmd {
	var name string
	var data []byte
	var ok bool
	if s, saver := m.current().(page.Saver); saver {
		name, data, ok = s.Save()
	}
	if !ok {
		text, copied := m.paneCopy()
		if !copied {
			return nothingToCopy
		}
		name, data = "mcpeek-"+strings.ToLower(m.current().Title())+".txt", []byte(text)
	}
	m.host(layer.NewSavePrompt(&m.c, name, data))
	return nil
}

// saveFile writes data to the file named, readable by its owner only
// (createSaved: never through a link, never over another user's file); a
// name starting with ~/ is in the home directory.
func saveFile(name string, data []byte) tea.Cmd {
	return func() tea.Msg {
		file := name
		if rest, ok := strings.CutPrefix(name, "~/"); ok {
			if home, err := os.UserHomeDir(); err == nil {
				file = filepath.Join(home, rest)
			}
		}
		if err := writeSaved(file, data); err != nil {
			return statusMsg{"save failed: " + err.Error(), true}
		}
		return statusMsg{fmt.Sprintf("saved %s to %s", bytesText(len(data)), file), false}
	}
}

// writeSaved writes data to path as createSaved opens it.
func writeSaved(file string, data []byte) error {
	f, err := createSaved(file)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
