package tui

import (
	"context"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/nativeform"
)

// Run shows the inspector on the terminal (drawn on out, normally stderr,
// so stdout stays clean) until the person quits.
func Run(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	nativeform.UseOutput(out) // colours follow the terminal drawn on, not stdout
	m := New(opts)
	_, err := tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out), tea.WithAltScreen(),
		tea.WithMouseCellMotion(), // the wheel scrolls the panes; shift+drag still selects text in most terminals
		tea.WithContext(ctx)).Run()
	m.asker.stop()
	if m.conn != nil {
		_ = m.conn.Close()
	}
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
