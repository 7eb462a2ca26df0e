package mcpconfig

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/internal/lockfile"
	"github.com/mcpeek/mcpeek/internal/safefile"
)

// TrustStore remembers the project servers the person approved, each by
// its config file's path, its name and a digest of its entry: an entry
// that changes is asked about again. It is one JSON file, readable and
// writable by its owner only, written whole and atomically; one that
// another user owns, or others may write, is refused.
type TrustStore struct {
	path string
}

// DefaultTrustPath is approved-servers.json in mcpeek's folder of the
// user's config directory (XDG_CONFIG_HOME is honoured), beside the token
// store.
func DefaultTrustPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("approved servers: %w", err)
	}
	return filepath.Join(dir, "mcpeek", "approved-servers.json"), nil
}

// OpenTrustStore returns the store at path; the file need not exist yet.
func OpenTrustStore(path string) *TrustStore { return &TrustStore{path: path} }

// Path is where the store lives.
func (ts *TrustStore) Path() string { return ts.path }

// approval is one approved entry.
type approval struct {
	File     string    `json:"file"`
	Server   string    `json:"server"`
	Digest   string    `json:"sha256"`
	Approved time.Time `json:"approved"`
}

type trustFile struct {
	Version  int        `json:"version"`
	Approved []approval `json:"approved"`
}

// maxTrustBytes bounds what is read of the store.
const maxTrustBytes = 4 << 20

// Approved reports whether the person approved the entry as it is now.
func (ts *TrustStore) Approved(s *Server) (bool, error) {
	file, digest := s.trustKey()
	return ts.ApprovedDigest(file, s.Name, digest)
}

// ApprovedDigest reports whether the person approved what the file (an
// absolute path) names as name, while its digest is digest: how a
// project's file other than a config (a suite) is approved by its
// content, as an entry is.
func (ts *TrustStore) ApprovedDigest(file, name, digest string) (bool, error) {
	list, err := ts.load()
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(list, func(a approval) bool {
		return a.File == file && a.Server == name && a.Digest == digest
	}), nil
}

// Approve remembers that the person approved the entry as it is now, in
// place of an approval of what it was before. It reads, changes and
// writes the store under the store's lock, so that approvals made at once
// by other runs are all kept.
func (ts *TrustStore) Approve(s *Server) error {
	file, digest := s.trustKey()
	return ts.ApproveDigest(file, s.Name, digest)
}

// ApproveDigest remembers, as Approve does, that the person approved what
// the file names as name while its digest is digest.
func (ts *TrustStore) ApproveDigest(file, name, digest string) error {
	dir := filepath.Dir(ts.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("approved servers: %w", err)
	}
	lock, err := safefile.Lock(ts.path + ".lock")
	if err != nil {
		return fmt.Errorf("approved servers: %w", err)
	}
	defer lock.Close() // releases the lock
	if err := lockfile.Lock(lock); err != nil {
		return fmt.Errorf("approved servers %s: lock: %w", ts.path, err)
	}
	list, err := ts.load()
	if err != nil {
		return err
	}
	list = slices.DeleteFunc(list, func(a approval) bool { return a.File == file && a.Server == name })
	list = append(list, approval{File: file, Server: name, Digest: digest, Approved: time.Now().UTC().Truncate(time.Second)})
	return ts.save(list)
}

// load reads the approvals. A missing file holds none; one that is not
// this user's alone, or not the store's JSON, is refused, saying why.
func (ts *TrustStore) load() ([]approval, error) {
	f, err := os.Open(ts.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("approved servers %s: %w", ts.path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("approved servers %s: %w", ts.path, err)
	}
	if err := ts.check(info); err != nil {
		return nil, err
	}
	var tf trustFile
	data, err := io.ReadAll(io.LimitReader(f, maxTrustBytes+1))
	if err == nil && len(data) > maxTrustBytes {
		err = fmt.Errorf("larger than %d bytes", maxTrustBytes)
	}
	if err == nil {
		err = json.Unmarshal(data, &tf)
	}
	if err != nil {
		return nil, fmt.Errorf("approved servers %s is corrupt (%v); refusing to use it: delete it, and approve the projects' servers again", ts.path, err)
	}
	return tf.Approved, nil
}

// check refuses a store that is not a regular file of this user's that
// only they may write: another user could approve servers for them.
func (ts *TrustStore) check(info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("approved servers %s is not a regular file; refusing to use it", ts.path)
	}
	if owner, ok := fileOwner(info); ok && owner != os.Getuid() {
		return fmt.Errorf("approved servers %s belongs to another user (uid %d); refusing to use it: delete it, and approve the projects' servers again", ts.path, owner)
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("approved servers %s may be written by others (mode %04o); refusing to use it: chmod 600 it, or delete it and approve the projects' servers again", ts.path, perm)
	}
	return nil
}

// save writes the approvals, under the store's lock: to a private
// temporary file in the same 0700 folder, then renamed over the store.
func (ts *TrustStore) save(list []approval) error {
	data, err := json.MarshalIndent(trustFile{Version: 1, Approved: list}, "", "  ")
	if err != nil {
		return fmt.Errorf("approved servers: %w", err)
	}
	if err := safefile.Atomic(ts.path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("approved servers: %w", err)
	}
	return nil
}

// trustKey is what an approval of the entry is remembered by: its file's
// absolute path, and the SHA-256 of all of the entry mcpeek acts on (the
// file's inputs too, and what its envFile holds now), so any change to
// what would run, or to the environment it would get, is asked about.
func (s *Server) trustKey() (file, digest string) {
	file, err := filepath.Abs(s.File)
	if err != nil {
		file = s.File
	}
	data, _ := json.Marshal(struct {
		File, Name, Scope, Format, Type, Command string
		Args                                     []string
		Env                                      map[string]string
		EnvFile, Cwd, URL                        string
		Headers                                  map[string]string
		BearerTokenEnvVar                        string
		EnvHeaders                               map[string]string
		Disabled                                 bool
		Inputs                                   []Input
		EnvFileSHA256                            string `json:",omitempty"`
	}{
		file, s.Name, s.Scope, string(s.Format), s.Type, s.Command, s.Args, s.Env, s.EnvFile, s.Cwd, s.URL,
		s.Headers, s.BearerTokenEnvVar, s.EnvHeaders, s.Disabled, s.inputs, s.envFileDigest(),
	})
	sum := sha256.Sum256(data)
	return file, hex.EncodeToString(sum[:])
}

// EnvReads are the environment variables expanding the entry reads, by
// name, sorted: ${env:NAME} anywhere, ${NAME} and ${NAME:-default} in an
// mcpServers config, and the variables a Codex entry names for its token
// and headers. Using a project's entry hands their values to its server.
func (s *Server) EnvReads() []string {
	names := map[string]bool{}
	if s.BearerTokenEnvVar != "" {
		names[s.BearerTokenEnvVar] = true
	}
	for _, v := range s.EnvHeaders {
		names[v] = true
	}
	if s.Format != FormatCodex {
		values := append([]string{s.Command, s.EnvFile, s.Cwd, s.URL}, s.Args...)
		for _, m := range []map[string]string{s.Env, s.Headers} {
			for _, v := range m {
				values = append(values, v)
			}
		}
		for _, v := range values {
			s.envNames(v, names)
		}
	}
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// envNames adds the variables value reads to names, as expanding it would
// read them.
func (s *Server) envNames(value string, names map[string]bool) {
	for {
		i := strings.Index(value, "${")
		if i < 0 {
			return
		}
		end := closing(value, i+2)
		if end < 0 {
			return
		}
		ref := value[i+2 : end]
		switch ref {
		case "workspaceFolder", "workspaceFolderBasename", "userHome", "pathSeparator", "/":
			value = value[end+1:]
			continue
		}
		if name, ok := strings.CutPrefix(ref, "env:"); ok {
			names[name] = true
		} else if s.Format == FormatMCPServers {
			name, def, _ := strings.Cut(ref, ":-")
			if shellName().MatchString(name) {
				names[name] = true
			}
			s.envNames(def, names)
		}
		value = value[end+1:]
	}
}
