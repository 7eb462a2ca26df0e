package tui

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/internal/secret"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolRuns is what the inspector keeps of what was asked (each tool's
// results are the Tools tab's, in tui/page): the last arguments used for
// each tool, which are remembered across runs per server in the user's
// state directory, never those of a secret field (internal/secret). The
// variables last given to each resource template are the Resources
// page's.
type toolRuns struct {
	args   map[string]json.RawMessage
	server string // the server the arguments belong to (argsServer)
	dir    string // the state folder (Options.StateDir; "" is stateDir's)
}

// remember keeps the arguments a tool is called with, but for its secret
// fields (secretField), and returns the command that writes them to the
// state file.
func (r *toolRuns) remember(tool *mcp.Tool, args json.RawMessage) tea.Cmd {
	if r.server == "" {
		return nil
	}
	kept, ok := secret.Forget(tool.InputSchema, args)
	if !ok {
		return nil
	}
	if r.args == nil {
		r.args = map[string]json.RawMessage{}
	}
	r.args[tool.Name] = kept
	snapshot := make(map[string]json.RawMessage, len(r.args))
	for k, v := range r.args {
		snapshot[k] = v
	}
	return saveArgs(r.dir, r.server, snapshot)
}

// lastArgs are the arguments a tool was last called with, but for its
// secret fields, or nil.
func (r *toolRuns) lastArgs(tool *mcp.Tool) map[string]any {
	var out map[string]any
	if raw, ok := r.args[tool.Name]; ok {
		if kept, ok := secret.Forget(tool.InputSchema, raw); ok && json.Unmarshal(kept, &out) == nil {
			return out
		}
	}
	return nil
}

// lastArgsJSON are a tool's last arguments, but for its secret fields, as
// indented JSON, or "".
func (r *toolRuns) lastArgsJSON(tool *mcp.Tool) string {
	var b bytes.Buffer
	raw, ok := r.args[tool.Name]
	if !ok {
		return ""
	}
	if kept, ok := secret.Forget(tool.InputSchema, raw); !ok || json.Indent(&b, kept, "", "  ") != nil {
		return ""
	}
	return b.String()
}

// argsServer names a server for its state file: its name and the target
// as the person gave it.
func argsServer(name, target string) string { return name + "\n" + target }

// argsLoadedMsg brings the arguments remembered for a server.
type argsLoadedMsg struct {
	server string
	args   map[string]json.RawMessage
}

// recall keeps the server that the arguments now belong to, and the state
// folder they are kept in (Options.StateDir), and returns the command that
// reads what was remembered for it.
func (r *toolRuns) recall(dir, server string) tea.Cmd {
	if server != r.server {
		r.server, r.args = server, nil
	}
	r.dir = dir
	return func() tea.Msg {
		path, err := argsPath(dir, server)
		if err != nil {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		var f argsFile
		if json.Unmarshal(b, &f) != nil {
			return nil
		}
		return argsLoadedMsg{server, f.Tools}
	}
}

// loaded takes in remembered arguments: a tool called in this session
// keeps the arguments of its latest call.
func (r *toolRuns) loaded(msg argsLoadedMsg) {
	if msg.server != r.server {
		return
	}
	if r.args == nil {
		r.args = map[string]json.RawMessage{}
	}
	for tool, args := range msg.args {
		if _, ok := r.args[tool]; ok {
			continue
		}
		// A file written before secrets were left out may hold some: those
		// a name tells are dropped here (the schema tells the others when
		// the tool is next called).
		if kept, ok := secret.Forget(nil, args); ok {
			r.args[tool] = kept
		}
	}
}

// argsFile is a server's state file. It holds the server's name and the
// arguments of its tools, never the target (a command line or URL may
// carry a secret), headers or environment values.
type argsFile struct {
	Server string                     `json:"server"`
	Tools  map[string]json.RawMessage `json:"tools"`
}

// stateDir is the folder of mcpeek's state files: dir when it is given
// (Options.StateDir), else mcpeek's folder in the user's state directory,
// $XDG_STATE_HOME/mcpeek, else ~/.local/state/mcpeek.
func stateDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "mcpeek"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("state directory: %w", err)
	}
	return filepath.Join(home, ".local", "state", "mcpeek"), nil
}

// argsPath is a server's state file in the state folder (stateDir): its
// name, made safe for a file name, and a hash of its name and target, so
// that two servers of one name are two files.
func argsPath(dir, server string) (string, error) {
	dir, err := stateDir(dir)
	if err != nil {
		return "", err
	}
	name, _, _ := strings.Cut(server, "\n")
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, name)
	if len(safe) > 40 {
		safe = safe[:40]
	}
	sum := sha256.Sum256([]byte(server))
	return filepath.Join(dir, "args-"+strings.Trim(safe, ".")+"-"+hex.EncodeToString(sum[:8])+".json"), nil
}

// stateWrites orders the writes of state files: the latest snapshot of
// each file wins, whichever command runs last.
var stateWrites struct {
	sync.Mutex
	seq     int
	written map[string]int
}

// saveArgs writes a server's remembered arguments, readable by the user
// alone (0600, in a 0700 folder).
func saveArgs(dir, server string, args map[string]json.RawMessage) tea.Cmd {
	stateWrites.Lock()
	stateWrites.seq++
	seq := stateWrites.seq
	stateWrites.Unlock()
	return func() tea.Msg {
		_ = writeArgs(dir, server, args, seq)
		return nil
	}
}

func writeArgs(dir, server string, args map[string]json.RawMessage, seq int) error {
	path, err := argsPath(dir, server)
	if err != nil {
		return err
	}
	name, _, _ := strings.Cut(server, "\n")
	b, err := json.MarshalIndent(argsFile{Server: name, Tools: args}, "", "  ")
	if err != nil {
		return err
	}
	stateWrites.Lock()
	defer stateWrites.Unlock()
	if stateWrites.written == nil {
		stateWrites.written = map[string]int{}
	}
	if stateWrites.written[path] > seq {
		return nil // a later snapshot is there already
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("remember arguments: %w", err)
	}
	if err := safefile.Atomic(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("remember arguments: %w", err)
	}
	stateWrites.written[path] = seq
	return nil
}
