// Package oauth is mcpeek's side of MCP authorization: the person's
// authorization-code flow (browser, loopback callback, pasted redirect),
// the token store, and the narration of what happened. go-sdk's
// auth.AuthorizationCodeHandler does the protocol: discovery, registration,
// PKCE, the resource parameter, issuer checks, step-up and refresh.
package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpeek/mcpeek/internal/lockfile"
	"github.com/mcpeek/mcpeek/internal/safefile"
	"golang.org/x/oauth2"
)

// Entry is what the store keeps for one (resource, authorization server):
// the client mcpeek was registered as there, and the last token.
type Entry struct {
	Resource     string    `json:"resource"`
	Issuer       string    `json:"issuer"`
	TokenURL     string    `json:"tokenUrl"`
	ClientID     string    `json:"clientId"`
	ClientSecret string    `json:"clientSecret,omitempty"`
	AuthStyle    int       `json:"authStyle,omitempty"`
	Scopes       []string  `json:"scopes,omitempty"`
	AccessToken  string    `json:"accessToken"`
	TokenType    string    `json:"tokenType,omitempty"`
	RefreshToken string    `json:"refreshToken,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	Saved        time.Time `json:"saved"`
}

// Token is the entry's token.
func (e *Entry) Token() *oauth2.Token {
	return &oauth2.Token{AccessToken: e.AccessToken, TokenType: e.TokenType, RefreshToken: e.RefreshToken, Expiry: e.Expiry}
}

// Usable reports whether the entry can authorize a request now: its
// access token has not expired, or it can be refreshed.
func (e *Entry) Usable(now time.Time) bool {
	if e.AccessToken == "" && e.RefreshToken == "" {
		return false
	}
	return e.RefreshToken != "" && e.TokenURL != "" || e.Expiry.IsZero() || e.Expiry.After(now.Add(10*time.Second))
}

// Store is auth.json: one entry per (resource, authorization server),
// readable by its owner only, written whole and atomically. Updates are
// read, changed and written under a lock on auth.json.lock, so that
// mcpeek runs logging in at once all keep their tokens.
type Store struct {
	path string
	mu   sync.Mutex
}

// DefaultStorePath is auth.json in mcpeek's folder of the user's config
// directory (XDG_CONFIG_HOME is honoured).
func DefaultStorePath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("token store: %w", err)
	}
	return filepath.Join(dir, "mcpeek", "auth.json"), nil
}

// OpenStore returns the store at path; the file need not exist yet.
func OpenStore(path string) *Store { return &Store{path: path} }

// Path is where the store lives.
func (s *Store) Path() string { return s.path }

type storeFile struct {
	Version int      `json:"version"`
	Entries []*Entry `json:"entries"`
}

// maxStoreBytes bounds what is read of the store.
const maxStoreBytes = 4 << 20

// load reads the entries. A missing file is empty; a file others can read
// or write, or one that is not the store's JSON, is refused, saying why.
func (s *Store) load() ([]*Entry, error) {
	f, err := os.Open(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, s.openError(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("token store %s: %w", s.path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("token store %s is not a regular file; refusing to use it", s.path)
	}
	if err := s.checkOwner(s.path, info); err != nil {
		return nil, err
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("token store %s is readable or writable by others (mode %04o); refusing to use it: chmod 600 it, or delete it to log in again", s.path, perm)
	}
	if info.Size() > maxStoreBytes {
		return nil, fmt.Errorf("token store %s is larger than %d bytes; refusing to use it", s.path, maxStoreBytes)
	}
	var sf storeFile
	dec := json.NewDecoder(f)
	if err := dec.Decode(&sf); err != nil {
		return nil, fmt.Errorf("token store %s is corrupt (%v); refusing to use it: delete it to log in again", s.path, err)
	}
	return slices.DeleteFunc(sf.Entries, func(e *Entry) bool { return e == nil }), nil
}

// checkOwner refuses a store file or folder another user owns: one
// written by a run under sudo, say, which this user could not keep up to
// date, and whose tokens are not theirs.
func (s *Store) checkOwner(path string, info fs.FileInfo) error {
	uid, ok := fileOwner(info)
	if !ok || uid == os.Geteuid() {
		return nil
	}
	return fmt.Errorf("token store %s belongs to another user (uid %d), perhaps from a run under sudo; refusing to use it: "+
		"give it back with `sudo chown -R %d %s`, or delete %s to log in again", path, uid, os.Geteuid(), filepath.Dir(s.path), filepath.Dir(s.path))
}

// openError explains a failure to open the store or its lock: another
// user's file or folder is named as such rather than as "permission
// denied".
func (s *Store) openError(err error) error {
	if errors.Is(err, fs.ErrPermission) {
		for _, p := range []string{s.path, filepath.Dir(s.path)} {
			if info, serr := os.Stat(p); serr == nil {
				if oerr := s.checkOwner(p, info); oerr != nil {
					return oerr
				}
			}
		}
	}
	return fmt.Errorf("token store %s: %w", s.path, err)
}

// update reads the entries, changes them with change and writes them back
// (when change says to), holding the store's lock throughout: in this
// process, and on unix in every other that updates the same store.
func (s *Store) update(change func([]*Entry) ([]*Entry, bool)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	if info, err := os.Stat(dir); err == nil {
		if err := s.checkOwner(dir, info); err != nil {
			return err
		}
	}
	lock, err := safefile.Lock(s.path + ".lock")
	if err != nil {
		return s.openError(err)
	}
	defer lock.Close() // releases the lock
	if err := lockfile.Lock(lock); err != nil {
		return fmt.Errorf("token store %s: lock: %w", s.path, err)
	}
	entries, err := s.load()
	if err != nil {
		return err
	}
	entries, changed := change(entries)
	if !changed {
		return nil
	}
	return s.save(entries)
}

// save writes the entries: to a private temporary file in the same 0700
// folder, then renamed over the store.
func (s *Store) save(entries []*Entry) error {
	dir := filepath.Dir(s.path)
	if info, err := os.Stat(dir); err == nil && info.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("token store: %w", err)
		}
	}
	data, err := json.MarshalIndent(storeFile{Version: 1, Entries: entries}, "", "  ")
	if err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	if err := safefile.Atomic(s.path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	return nil
}

// Entries lists the stored entries, for `mcpeek auth status`.
func (s *Store) Entries() ([]*Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.load()
}

// Find returns the entries for a resource, newest first.
func (s *Store) Find(resource string) ([]*Entry, error) {
	entries, err := s.Entries()
	if err != nil {
		return nil, err
	}
	var out []*Entry
	for _, e := range entries {
		if sameResource(e.Resource, resource) {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b *Entry) int { return b.Saved.Compare(a.Saved) })
	return out, nil
}

// Put stores e, replacing the entry of the same resource and issuer.
func (s *Store) Put(e *Entry) error {
	return s.update(func(entries []*Entry) ([]*Entry, bool) {
		entries = slices.DeleteFunc(entries, func(x *Entry) bool {
			return sameResource(x.Resource, e.Resource) && x.Issuer == e.Issuer
		})
		return append(entries, e), true
	})
}

// Remove deletes the entries of a resource (every resource when it is
// empty) and returns how many it deleted.
func (s *Store) Remove(resource string) (int, error) {
	if _, err := os.Lstat(s.path); errors.Is(err, fs.ErrNotExist) {
		return 0, nil // nothing to lock, nor a folder to make
	}
	removed := 0
	err := s.update(func(entries []*Entry) ([]*Entry, bool) {
		n := len(entries)
		entries = slices.DeleteFunc(entries, func(x *Entry) bool { return resource == "" || sameResource(x.Resource, resource) })
		removed = n - len(entries)
		return entries, removed > 0
	})
	if err != nil {
		return 0, err
	}
	return removed, nil
}

// sameResource compares resource URLs as the specification's canonical
// URIs: scheme and host case-insensitively, without a trailing slash.
func sameResource(a, b string) bool {
	norm := func(s string) string {
		s = strings.TrimSuffix(s, "/")
		if i := strings.Index(s, "://"); i >= 0 {
			rest := s[i+3:]
			host, path, _ := strings.Cut(rest, "/")
			s = strings.ToLower(s[:i+3]+host) + "/" + path
		}
		return strings.TrimSuffix(s, "/")
	}
	return norm(a) == norm(b)
}
