package tui

import (
	"encoding/json"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/nativeform"
)

// openArgs shows a form for arguments; done gets what was submitted.
func (m *Model) openArgs(title string, schema *formschema.Schema, done func(map[string]any) tea.Cmd) tea.Cmd {
	m.argsDone = done
	m.argsForm = nativeform.New(nativeform.Request{Server: "mcpeek", Connection: "your input", Message: title, Schema: schema}, nativeform.Options{})
	_, size := m.argsForm.Update(tea.WindowSizeMsg{Width: m.c.width, Height: m.bodyHeight()})
	return tea.Batch(m.argsForm.Init(), size)
}

// jsonKey edits arguments as JSON: ctrl+s calls when they are a JSON
// object, esc gives up.
func (m *Model) jsonKey(msg tea.KeyMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.jsonEdit, m.jsonTool, m.jsonErr = nil, nil, ""
		return nil
	case "ctrl+s":
		var obj map[string]any
		text := m.jsonEdit.Value()
		if err := json.Unmarshal([]byte(text), &obj); err != nil || obj == nil {
			m.jsonErr = "the arguments must be a JSON object"
			if err != nil {
				m.jsonErr += ": " + err.Error()
			}
			return nil
		}
		tool := m.jsonTool
		m.jsonEdit, m.jsonTool, m.jsonErr = nil, nil, ""
		return m.call(tool, json.RawMessage(text))
	}
	ed, cmd := m.jsonEdit.Update(msg)
	m.jsonEdit = &ed
	return cmd
}
