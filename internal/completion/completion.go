// Package completion writes mcpeek's shell-completion scripts: bash, zsh
// and fish templates filled from what the command table says (Data). It
// knows nothing of the commands themselves; the CLI reads its table into
// Data and prints the script.
package completion

import (
	"io"
	"strings"
	"text/template"
	"unicode"
)

// Shells are the shells a script is written for.
var Shells = []string{"bash", "zsh", "fish"}

// Data is what a completion script knows, all of it from the command
// table: the commands, each one's flags and the words its first argument
// may be, and which flags take a value (whose next word is no command).
// The names of configured servers (@NAME) the script asks of
// `mcpeek servers --names` as it completes, so that they are current.
type Data struct {
	Commands   []Command // the named ones, aliases too
	Inspector  Command
	ValueFlags []string // every flag that takes a value, as typed (-H, --protocol)
}

// Command is one command as a script completes it.
type Command struct {
	Name, Summary string
	Flags         []Flag
	Words         []string
}

// Flag is one of a command's flags.
type Flag struct {
	Name  string // as typed: -H, --protocol
	Usage string // its help's first line, for the shells that show one
	Value bool   // it takes a value
}

// CompletableName reports whether a configured server's name may be
// offered for completion. The name comes from a config file, perhaps a
// repository's, and a completion is typed into the person's shell, where
// bash's compgen -W even expands it: only names of letters, digits and
// . _ + - / are offered, which no shell reads as anything but text.
func CompletableName(name string) bool {
	if name == "" || name[0] == '-' {
		return false
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("._+-/", r) {
			return false
		}
	}
	return true
}

// Write writes the completion script for shell, one of Shells, filled
// from d.
func Write(w io.Writer, shell string, d Data) error {
	t := template.Must(template.New(shell).Funcs(template.FuncMap{
		"join":  strings.Join,
		"names": func(flags []Flag) string { return strings.Join(flagNames(flags), " ") },
		"fish":  fishQuote,
		"short": func(name string) bool { return len(name) == 2 },
		"bare":  func(name string) string { return strings.TrimLeft(name, "-") },
	}).Parse(scripts[shell]))
	return t.Execute(w, d)
}

func flagNames(flags []Flag) []string {
	names := make([]string, len(flags))
	for i, f := range flags {
		names[i] = f.Name
	}
	return names
}

// fishQuote quotes s for fish, in single quotes.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// scripts are the scripts' templates, by shell. Each finds the
// command among the words typed so far (skipping flags and the values of
// those that take one), and offers: after @, the configured servers'
// names (mcpeek servers --names: names only, nothing run or expanded);
// after -, the command's flags; first, the commands; then the words of
// the command's first argument; else files, as for a server's command.
var scripts = map[string]string{
	"bash": `# bash completion for mcpeek. Load it from ~/.bashrc:
#   source <(mcpeek completion bash)
_mcpeek() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd= word i args=0 words=
	for ((i = 1; i < COMP_CWORD; i++)); do
		word=${COMP_WORDS[i]}
		case $word in
		--) return 0 ;;
		{{join .ValueFlags "|"}}) ((i++)) ;;
		-*) ;;
		*) if [[ -z $cmd ]]; then cmd=$word; else ((args++)); fi ;;
		esac
	done
	case $cmd in
	''{{range .Commands}}|{{.Name}}{{end}}) ;;
	*) return 0 ;; # a server's command: its own words
	esac
	case $prev in
	{{join .ValueFlags "|"}}) return 0 ;;
	esac
	case $cur in
	@*)
		words=$("${COMP_WORDS[0]}" servers --names 2>/dev/null)
		COMPREPLY=($(compgen -P @ -W "$words" -- "${cur#@}"))
		return 0 ;;
	-*)
		case $cmd in
{{- range .Commands}}
		{{.Name}}) words="{{names .Flags}}" ;;
{{- end}}
		*) words="{{names .Inspector.Flags}}" ;;
		esac ;;
	*)
		if [[ -z $cmd ]]; then
			words="{{range $i, $c := .Commands}}{{if $i}} {{end}}{{$c.Name}}{{end}}"
		elif ((args == 0)); then
			case $cmd in
{{- range .Commands}}{{if .Words}}
			{{.Name}}) words="{{join .Words " "}}" ;;
{{- end}}{{end}}
			esac
		fi ;;
	esac
	COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _mcpeek mcpeek
`,
	"zsh": `#compdef mcpeek
# zsh completion for mcpeek. Save it as _mcpeek in a folder of $fpath, or
# load it from ~/.zshrc (after compinit):
#   source <(mcpeek completion zsh)
_mcpeek() {
	local cmd= word i args=0
	local -a found
	for ((i = 2; i < CURRENT; i++)); do
		word=${words[i]}
		case $word in
		--) _files; return ;;
		{{join .ValueFlags "|"}}) ((i++)) ;;
		-*) ;;
		*) if [[ -z $cmd ]]; then cmd=$word; else ((args++)); fi ;;
		esac
	done
	case $cmd in
	''{{range .Commands}}|{{.Name}}{{end}}) ;;
	*) _files; return ;; # a server's command: its own words
	esac
	case ${words[CURRENT-1]} in
	{{join .ValueFlags "|"}}) _files; return ;;
	esac
	case ${words[CURRENT]} in
	@*)
		found=(${(f)"$(${words[1]} servers --names 2>/dev/null)"})
		compadd -- ${found/#/@}
		return ;;
	-*)
		case $cmd in
{{- range .Commands}}
		{{.Name}}) found=({{names .Flags}}) ;;
{{- end}}
		*) found=({{names .Inspector.Flags}}) ;;
		esac
		compadd -- $found
		return ;;
	esac
	if [[ -z $cmd ]]; then
		compadd -- {{range $i, $c := .Commands}}{{if $i}} {{end}}{{$c.Name}}{{end}}
		_files
		return
	fi
	if ((args == 0)); then
		case $cmd in
{{- range .Commands}}{{if .Words}}
		{{.Name}}) compadd -- {{join .Words " "}}; return ;;
{{- end}}{{end}}
		esac
	fi
	_files
}
if [[ $funcstack[1] == _mcpeek ]]; then
	_mcpeek "$@"
else
	compdef _mcpeek mcpeek
fi
`,
	"fish": `# fish completion for mcpeek. Save it where fish finds it:
#   mcpeek completion fish > ~/.config/fish/completions/mcpeek.fish

# The words typed so far that are neither flags nor their values, the
# command first; after --, a server's command, a -- in their place.
function __mcpeek_words
	set -l words (commandline -opc)
	set -e words[1]
	set -l skip 0
	for word in $words
		if test $skip = 1
			set skip 0
			continue
		end
		switch $word
			case '--'
				echo -- --
				return
			case {{range $i, $f := .ValueFlags}}{{if $i}} {{end}}{{fish $f}}{{end}}
				set skip 1
			case '-*'
			case '*'
				echo -- $word
		end
	end
end

# The command typed, if any (status 1 before one).
function __mcpeek_command
	set -l words (__mcpeek_words)
	set -q words[1]; or return 1
	echo -- $words[1]
end

function __mcpeek_using -a name
	set -l words (__mcpeek_words)
	set -q words[1]; and test "$words[1]" = $name
end

# Whether the command is name and its first argument is next.
function __mcpeek_first_argument -a name
	set -l words (__mcpeek_words)
	test (count $words) -eq 1; and test "$words[1]" = $name
end

function __mcpeek_servers
	set -l words (commandline -opc)
	$words[1] servers --names 2>/dev/null | string replace -r '^' @
end

complete -c mcpeek -f -n 'string match -q -- "@*" (commandline -ct)' -a '(__mcpeek_servers)'
{{- range .Commands}}
complete -c mcpeek -f -n 'not __mcpeek_command' -a {{fish .Name}} -d {{fish .Summary}}
{{- end}}
{{- range .Inspector.Flags}}
complete -c mcpeek -n 'not __mcpeek_command' {{if short .Name}}-s{{else}}-l{{end}} {{bare .Name}}{{if .Value}} -r{{end}} -d {{fish .Usage}}
{{- end}}
{{- range $c := .Commands}}
{{- range .Flags}}
complete -c mcpeek -n {{fish (printf "__mcpeek_using %s" $c.Name)}} {{if short .Name}}-s{{else}}-l{{end}} {{bare .Name}}{{if .Value}} -r{{end}} -d {{fish .Usage}}
{{- end}}
{{- if .Words}}
complete -c mcpeek -f -n {{fish (printf "__mcpeek_first_argument %s" $c.Name)}} -a {{fish (join .Words " ")}}
{{- end}}
{{- end}}
`,
}
