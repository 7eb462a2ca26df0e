package mcpconfig

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/joho/godotenv"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// Resolver supplies what expanding an entry's variables needs.
type Resolver struct {
	// LookupEnv reads the environment (nil: the process's).
	LookupEnv func(string) (string, bool)
	// Home is ${userHome} ("": the user's home directory).
	Home string
	// Ask asks the person for a VS Code input, once per input and
	// resolution. Nil: an entry that refers to an input fails with
	// [ErrNeedsInput].
	Ask func(Input) (string, error)
}

// ErrNeedsInput is the failure of resolving, without a way to ask, an entry
// that refers to a VS Code input.
var ErrNeedsInput = errors.New("needs an input asked in the terminal")

// Resolved is an entry made ready to connect to.
type Resolved struct {
	Target mcpclient.Target
	// Secrets are values the entry resolved to that logs must redact:
	// password inputs, bearer tokens, credential headers.
	Secrets []string
}

// Resolve expands the entry's variables as its format defines and builds
// the target it names. A variable that is not set, an unknown one, or an
// unfinished ${ is an error naming it.
//
// Expansion is one pass: what a variable expands to is never expanded
// again, so a value that itself holds "${…}" is taken as it is and no
// reference can loop.
func (s *Server) Resolve(r Resolver) (Resolved, error) {
	transport, err := s.Transport()
	if err != nil {
		return Resolved{}, err
	}
	x := &expander{s: s, r: r, asked: map[string]string{}}
	if x.r.LookupEnv == nil {
		x.r.LookupEnv = os.LookupEnv
	}
	if x.r.Home == "" {
		x.r.Home, _ = os.UserHomeDir()
	}
	var t mcpclient.Target
	if transport == TransportStdio {
		t, err = x.stdio()
	} else {
		t, err = x.http(transport == TransportSSE)
	}
	if err != nil {
		return Resolved{}, err
	}
	return Resolved{Target: t, Secrets: x.secrets}, nil
}

// expander expands one entry's values.
type expander struct {
	s       *Server
	r       Resolver
	asked   map[string]string
	secrets []string
}

func (x *expander) stdio() (mcpclient.Target, error) {
	cmd, err := x.expand(x.s.Command, "command")
	if err != nil {
		return mcpclient.Target{}, err
	}
	words := []string{cmd}
	for i, a := range x.s.Args {
		v, err := x.expand(a, fmt.Sprintf("args[%d]", i))
		if err != nil {
			return mcpclient.Target{}, err
		}
		words = append(words, v)
	}
	env := map[string]string{}
	if x.s.EnvFile != "" {
		path, err := x.expand(x.s.EnvFile, "envFile")
		if err != nil {
			return mcpclient.Target{}, err
		}
		if path = x.fromProject(path); path != "" {
			data, err := readEnvFile(path)
			if err == nil {
				env, err = godotenv.UnmarshalBytes(data)
			}
			if err != nil {
				return mcpclient.Target{}, x.errorf("envFile: %v", err)
			}
		}
	}
	for _, k := range x.s.EnvKeys() {
		if env[k], err = x.expand(x.s.Env[k], "env."+k); err != nil {
			return mcpclient.Target{}, err
		}
	}
	dir, err := x.expand(x.s.Cwd, "cwd")
	if err != nil {
		return mcpclient.Target{}, err
	}
	t := mcpclient.Target{Kind: mcpclient.TargetStdio, Command: words, Dir: x.s.project}
	if dir != "" {
		t.Dir = x.fromProject(dir)
	}
	for _, k := range sortedKeys(env) {
		t.Env = append(t.Env, k+"="+env[k])
	}
	return t, nil
}

// fromProject makes a relative path relative to the entry's project.
func (x *expander) fromProject(path string) string {
	if filepath.IsAbs(path) || x.s.project == "" {
		return path
	}
	return filepath.Join(x.s.project, path)
}

func (x *expander) http(sse bool) (mcpclient.Target, error) {
	raw, err := x.expand(x.s.URL, "url")
	if err != nil {
		return mcpclient.Target{}, err
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return mcpclient.Target{}, x.errorf("url %q is not an http:// or https:// URL", raw)
	}
	// A value the URL took from a variable (an API key in the query, a
	// password in the user info) is redacted like a header's.
	if raw != x.s.URL {
		for _, vs := range u.Query() {
			for _, v := range vs {
				if len(v) >= 8 && !strings.Contains(x.s.URL, v) {
					x.secrets = append(x.secrets, v)
				}
			}
		}
		if pw, ok := u.User.Password(); ok && !strings.Contains(x.s.URL, pw) {
			x.secrets = append(x.secrets, pw)
		}
	}
	h := http.Header{}
	for _, name := range sortedKeys(x.s.Headers) {
		v, err := x.expand(x.s.Headers[name], "headers."+name)
		if err != nil {
			return mcpclient.Target{}, err
		}
		h.Set(name, v)
	}
	// Codex names the variables that hold header values.
	for _, name := range sortedKeys(x.s.EnvHeaders) {
		v, err := x.env(x.s.EnvHeaders[name], "env_http_headers."+name)
		if err != nil {
			return mcpclient.Target{}, err
		}
		h.Set(name, v)
	}
	if x.s.BearerTokenEnvVar != "" {
		tok, err := x.env(x.s.BearerTokenEnvVar, "bearer_token_env_var")
		if err != nil {
			return mcpclient.Target{}, err
		}
		h.Set("Authorization", "Bearer "+tok)
		x.secrets = append(x.secrets, tok)
	}
	for name, vs := range h {
		if mcpclient.CredentialHeader(name) {
			for _, v := range vs {
				x.secrets = append(x.secrets, v)
				if _, cred, ok := strings.Cut(v, " "); ok {
					x.secrets = append(x.secrets, strings.TrimSpace(cred))
				}
			}
		}
	}
	sort.Strings(x.secrets)
	x.secrets = slices.Compact(x.secrets)
	return mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: raw, Headers: h, SSE: sse}, nil
}

// env reads the variable name for the field where, or fails naming it.
func (x *expander) env(name, where string) (string, error) {
	v, ok := x.r.LookupEnv(name)
	if !ok {
		return "", x.errorf("%s: environment variable %s is not set", where, name)
	}
	return v, nil
}

func (x *expander) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: server %q: %s", x.s.File, x.s.Name, fmt.Sprintf(format, args...))
}

// expand expands the variables of value, the field where, as the entry's
// format defines: Codex has none.
func (x *expander) expand(value, where string) (string, error) {
	if x.s.Format == FormatCodex || !strings.Contains(value, "${") {
		return value, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(value, "${")
		if i < 0 {
			b.WriteString(value)
			return b.String(), nil
		}
		b.WriteString(value[:i])
		end := closing(value, i+2)
		if end < 0 {
			return "", x.errorf("%s: an unfinished ${ (no closing })", where)
		}
		v, err := x.variable(value[i+2:end], where)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		value = value[end+1:]
	}
}

// closing is the index of the } that closes a ${ opened just before from,
// counting nested ${…}; -1 if none does.
func closing(s string, from int) int {
	depth := 0
	for i := from; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "${"):
			depth++
			i++
		case s[i] == '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// shellName is a variable name of the ${VAR} form.
var shellName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// variable is the value of one ${ref}.
func (x *expander) variable(ref, where string) (string, error) {
	switch ref {
	case "workspaceFolder":
		return x.s.workspace, nil
	case "workspaceFolderBasename":
		return filepath.Base(x.s.workspace), nil
	case "userHome":
		return x.r.Home, nil
	case "pathSeparator", "/":
		return string(filepath.Separator), nil
	}
	if name, ok := strings.CutPrefix(ref, "env:"); ok {
		v, found := x.r.LookupEnv(name)
		if !found {
			return "", x.errorf("%s: ${env:%s}: environment variable %s is not set", where, name, name)
		}
		return v, nil
	}
	if id, ok := strings.CutPrefix(ref, "input:"); ok && x.s.Format == FormatVSCode {
		return x.input(id, where)
	}
	if x.s.Format == FormatMCPServers {
		// Claude Code: ${VAR} and ${VAR:-default}.
		name, def, hasDefault := strings.Cut(ref, ":-")
		if shellName().MatchString(name) {
			if v, found := x.r.LookupEnv(name); found && (v != "" || !hasDefault) {
				return v, nil
			}
			if hasDefault {
				return x.expand(def, where)
			}
			return "", x.errorf("%s: ${%s}: environment variable %s is not set (${%s:-default} gives a default)", where, name, name, name)
		}
	}
	hint := ""
	if x.s.Format == FormatVSCode && shellName().MatchString(ref) {
		hint = fmt.Sprintf(" (VS Code reads the environment as ${env:%s})", ref)
	}
	return "", x.errorf("%s: unknown variable ${%s}%s", where, ref, hint)
}

// input is the value of ${input:id}, asked once.
func (x *expander) input(id, where string) (string, error) {
	if v, ok := x.asked[id]; ok {
		return v, nil
	}
	i := slices.IndexFunc(x.s.inputs, func(in Input) bool { return in.ID == id })
	if i < 0 {
		return "", x.errorf("%s: ${input:%s} is not declared in the file's inputs", where, id)
	}
	in := x.s.inputs[i]
	switch in.Type {
	case "promptString", "pickString", "":
	default:
		return "", x.errorf("%s: ${input:%s} is of type %q; mcpeek asks for promptString and pickString inputs", where, id, in.Type)
	}
	if x.r.Ask == nil {
		return "", fmt.Errorf("%s: server %q: ${input:%s}: %w", x.s.File, x.s.Name, id, ErrNeedsInput)
	}
	v, err := x.r.Ask(in)
	if err != nil {
		return "", x.errorf("${input:%s}: %v", id, err)
	}
	if in.Password {
		x.secrets = append(x.secrets, v)
	}
	x.asked[id] = v
	return v, nil
}
