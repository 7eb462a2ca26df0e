package session

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"al.essio.dev/pkg/shellescape"
	"github.com/mcpeek/mcpeek/internal/mcpconfig"
)

// Listing is one server the configs name, as `mcpeek servers` and the
// inspector's picker show it. Environment and header values may be
// secret: only their names are listed.
type Listing struct {
	Name      string   `json:"name"`
	Transport string   `json:"transport,omitempty"`
	Command   string   `json:"command,omitempty"`
	Args      []string `json:"args,omitempty"`
	URL       string   `json:"url,omitempty"`
	Env       []string `json:"env,omitempty"`
	Headers   []string `json:"headers,omitempty"`
	File      string   `json:"file"`
	Client    string   `json:"client,omitempty"`
	Format    string   `json:"format"`
	Scope     string   `json:"scope,omitempty"`
	// Shadowed: an earlier config names a server the same; that one is
	// the one @NAME reaches.
	Shadowed bool `json:"shadowed,omitempty"`
	// Project: a project's config names it (one found from the working
	// directory up), so it is used only once approved; NeedsApproval: the
	// person has not approved it as it is now.
	Project       bool `json:"project,omitempty"`
	NeedsApproval bool `json:"needsApproval,omitempty"`
	// Hides are the person's own configs naming a server the same, which
	// @NAME does not reach while the project's is there.
	Hides    []string `json:"hides,omitempty"`
	Disabled bool     `json:"disabled,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// LookedFor is a config file discovery looked for.
type LookedFor struct {
	Path    string `json:"path"`
	Client  string `json:"client,omitempty"`
	Present bool   `json:"present"`
}

// Listings describe the servers found, each with whose config it is in,
// whether an earlier one has its name, and, for a project's, whether the
// person approved it and which of their own it hides.
func Listings(servers []*mcpconfig.Server, looked []LookedFor) ([]Listing, error) {
	clients := map[string]string{}
	for _, l := range looked {
		clients[l.Path] = l.Client
	}
	listed := make([]Listing, 0, len(servers))
	seen := map[string]bool{}
	for _, srv := range servers {
		l := listing(srv, clients[srv.File], seen[srv.Name])
		seen[srv.Name] = true
		if srv.FromProject {
			ok, err := Approved(srv)
			if err != nil {
				return nil, err
			}
			l.Project, l.NeedsApproval = true, !ok
			for _, other := range servers {
				if !l.Shadowed && strings.EqualFold(other.Name, srv.Name) && !other.FromProject { // as Found.Shadowed
					l.Hides = append(l.Hides, AbsPath(other.File))
				}
			}
		}
		listed = append(listed, l)
	}
	return listed, nil
}

// CommandOrURL is what a listing runs or reaches, as a table shows it: a
// command quoted for a POSIX shell, so that it can be pasted back.
func (l Listing) CommandOrURL() string {
	if l.Transport == mcpconfig.TransportStdio {
		return shellescape.QuoteCommand(append([]string{l.Command}, l.Args...))
	}
	return l.URL
}

// Discover reads the config at configPath, or, when it is "", every
// config discovery finds.
func Discover(configPath string) ([]*mcpconfig.Server, []LookedFor, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, nil, err
	}
	if configPath != "" {
		f, err := mcpconfig.Load(configPath, mcpconfig.Options{Dir: dir})
		if err != nil {
			return nil, nil, err
		}
		return f.Servers, []LookedFor{{Path: AbsPath(configPath), Present: true}}, nil
	}
	places, err := mcpconfig.DefaultPlaces()
	if err != nil {
		return nil, nil, err
	}
	found, err := mcpconfig.Discover(places)
	if err != nil {
		return nil, nil, err
	}
	present := map[string]bool{}
	for _, f := range found.Files {
		present[f.Path] = true
	}
	var looked []LookedFor
	for _, c := range found.Looked {
		looked = append(looked, LookedFor{Path: c.Path, Client: c.Client, Present: present[c.Path]})
	}
	return found.Servers(), looked, nil
}

// AbsPath is p made absolute, or p as it is when that fails.
func AbsPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// listing describes one server as its config writes it: nothing is
// expanded, so no variable's value is shown.
func listing(srv *mcpconfig.Server, client string, shadowed bool) Listing {
	l := Listing{
		Name: srv.Name, File: AbsPath(srv.File), Client: client, Format: string(srv.Format), Scope: srv.Scope,
		Env: srv.EnvKeys(), Headers: srv.HeaderNames(), Shadowed: shadowed, Disabled: srv.Disabled,
	}
	transport, err := srv.Transport()
	if err != nil {
		l.Error = err.Error()
		return l
	}
	l.Transport = transport
	if transport == mcpconfig.TransportStdio {
		l.Command, l.Args = srv.Command, srv.Args
	} else {
		l.URL = RedactURL(srv.URL)
	}
	return l
}

// Notes are the remarks on one server: why it cannot be used, whether
// another hides it, and the names of its environment and headers.
func (l Listing) Notes() string {
	var n []string
	if l.Error != "" {
		msg := l.Error
		if _, after, ok := strings.Cut(msg, "server "+strconv.Quote(l.Name)); ok {
			msg = strings.TrimLeft(after, ": ")
		}
		n = append(n, "invalid: "+msg)
	}
	if l.NeedsApproval {
		n = append(n, "a project's, not approved yet")
	}
	for _, own := range l.Hides {
		n = append(n, "hides yours in "+DisplayPath(own))
	}
	if l.Shadowed {
		n = append(n, "shadowed by an earlier one")
	}
	if l.Disabled {
		n = append(n, "disabled")
	}
	if len(l.Env) > 0 {
		n = append(n, "env "+strings.Join(l.Env, ","))
	}
	if len(l.Headers) > 0 {
		n = append(n, "headers "+strings.Join(l.Headers, ","))
	}
	return strings.Join(n, "; ")
}
