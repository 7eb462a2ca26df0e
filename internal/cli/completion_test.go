package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/completion"
)

// TestCompletionScripts: each shell's script names every command and is
// valid for that shell, as its own parser says (a shell not installed is
// skipped, saying so).
func TestCompletionScripts(t *testing.T) {
	check := map[string][]string{"bash": {"-n"}, "zsh": {"-n"}, "fish": {"--no-execute"}}
	for _, shell := range completion.Shells {
		t.Run(shell, func(t *testing.T) {
			code, script, stderr := run("completion", shell)
			if code != exitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			for _, name := range commandNames() {
				if !strings.Contains(script, name) {
					t.Errorf("the script lacks the command %q", name)
				}
			}
			for _, flag := range []string{"--protocol", "--answers", "--out", "-H"} {
				if !strings.Contains(script, flag) {
					t.Errorf("the script lacks the flag %s", flag)
				}
			}
			path, err := exec.LookPath(shell)
			if err != nil {
				t.Skipf("%s is not installed: its script's syntax is not checked", shell)
			}
			file := filepath.Join(t.TempDir(), "mcpeek."+shell)
			writeFile(t, file, script)
			if out, err := exec.Command(path, append(check[shell], file)...).CombinedOutput(); err != nil {
				t.Errorf("%s rejects the script: %v\n%s", shell, err, out)
			}
		})
	}
	if code, _, stderr := run("completion", "powershell"); code != exitUsage || !strings.Contains(stderr, "bash, zsh or fish") {
		t.Errorf("an unknown shell: exit %d, stderr %q", code, stderr)
	}
}

// TestBashCompletion: the bash script completes as a person types: the
// commands, a command's flags and its first argument's words (after flags
// given before the command too), nothing of mcpeek's inside a server's
// command, and @NAMEs from mcpeek servers --names.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	_, script, _ := run("completion", "bash")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "mcpeek.bash"), script)
	// The mcpeek the script asks for names: they are mcpeek servers
	// --names's to choose (TestServersNames).
	stub := filepath.Join(dir, "mcpeek")
	writeFile(t, stub, "#!/bin/sh\n[ \"$1 $2\" = 'servers --names' ] && printf 'notes\\ngh/repo\\nnotion\\n'\n")
	if err := os.Chmod(stub, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		line, want string // the words typed (the last the one completed), what is offered
	}{
		{"li", "list"},
		{"c", "call complete caps completion"},
		{"list ", "tools resources prompts"},
		{"-e K=V --protocol legacy list p", "prompts"},
		{"list tools ", ""},
		{"call --pro", "--progress --protocol"},
		{"read --f", "--force"},
		{"completion ", "bash zsh fish"},
		{"@no", "@notes @notion"},
		{"call echo @", "@notes @gh/repo @notion"},
		{"node --pro", ""},
		{"-- li", ""},
		{"call x --protocol ", ""},
	} {
		t.Run(tc.line, func(t *testing.T) {
			words := strings.Fields(tc.line)
			if strings.HasSuffix(tc.line, " ") {
				words = append(words, "")
			}
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = "'" + w + "'"
			}
			prog := `source "$1/mcpeek.bash"; COMP_WORDS=("$1/mcpeek" ` + strings.Join(quoted, " ") + `); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _mcpeek; echo "${COMPREPLY[*]}"`
			out, err := exec.Command(bash, "-c", prog, "bash", dir).CombinedOutput()
			if got := strings.TrimSpace(string(out)); err != nil || got != tc.want {
				t.Errorf("offered %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}

// TestServersNames: servers --names lists each name @NAME takes, a
// project's unapproved servers' too (a name runs nothing), and leaves out
// a name a shell would read as more than text, which the completion
// would type into the person's shell.
func TestServersNames(t *testing.T) {
	_, project := home(t)
	writeFile(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {
		"notes": {"command": "notes-server"},
		"evil$(touch pwned)": {"command": "x"},
		"two words": {"command": "y"},
		"-rf": {"command": "z"},
		"gh/repo": {"url": "https://example.com/mcp"},
		"notes.v2": {"command": "n"}
	}}`)
	code, stdout, stderr := runIn(t, project, "servers", "--names")
	if want := "notes\ngh/repo\nnotes.v2\n"; code != exitOK || stdout != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, stdout, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(project, "cmd", "pwned")); err == nil {
		t.Error("a name was run")
	}
}

// TestZshCompletion: the zsh script offers what the bash one does; zsh's
// compadd and _files are stood in for, to see what it offers.
func TestZshCompletion(t *testing.T) {
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("zsh is not installed: its completion is not tried")
	}
	_, script, _ := run("completion", "zsh")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "_mcpeek"), script)
	stub := filepath.Join(dir, "mcpeek")
	writeFile(t, stub, "#!/bin/sh\n[ \"$1 $2\" = 'servers --names' ] && printf 'notes\\ngh/repo\\n'\n")
	if err := os.Chmod(stub, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ line, want string }{
		{"list ", "tools resources prompts"},
		{"-e K=V list ", "tools resources prompts"},
		{"read --fo", "--force"},
		{"@", "@notes @gh/repo"},
		{"node --x", "(files)"},
		{"call x --protocol ", "(files)"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			words := strings.Fields(tc.line)
			if strings.HasSuffix(tc.line, " ") {
				words = append(words, "")
			}
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = "'" + w + "'"
			}
			prog := `compdef() { :; }; source "$1/_mcpeek"
compadd() { [[ $1 == -- ]] && shift; print -r -- "${(@M)@:#${words[CURRENT]}*}"; }
_files() { print -r -- "(files)"; }
words=("$1/mcpeek" ` + strings.Join(quoted, " ") + `); CURRENT=${#words}; _mcpeek`
			out, err := exec.Command(zsh, "-c", prog, "zsh", dir).CombinedOutput()
			if got := strings.TrimSpace(string(out)); err != nil || got != tc.want {
				t.Errorf("offered %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}
