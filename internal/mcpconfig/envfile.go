package mcpconfig

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/mcpeek/mcpeek/internal/safefile"
)

// maxEnvFileBytes bounds what is read of an entry's envFile.
const maxEnvFileBytes = 1 << 20

// readEnvFile reads an entry's envFile: a regular file (a named pipe is
// not waited on), of at most maxEnvFileBytes.
func readEnvFile(path string) ([]byte, error) {
	return safefile.ReadAtMost(path, maxEnvFileBytes)
}

// EnvFileRead is the file an entry's envFile names, as a run would read
// it into the server's environment.
type EnvFileRead struct {
	// Path is the file, its variables expanded and made absolute from the
	// project; Written is the envFile as written, for when Path is not
	// known (it needs a VS Code input, or a variable that is not set).
	Path, Written string
	// Real is the file Path leads to, links followed ("" when it cannot
	// be told, as when nothing is there yet).
	Real string
	// InProject: the file, links followed (as written when nothing is
	// there yet), is inside the entry's project folder; a file outside it
	// (${userHome}/.aws/credentials, or a link to one) may be the person's
	// own secrets.
	InProject bool
}

// EnvFileRead says which file the entry's envFile names (ok is false when
// it names none). Only the environment is read to know it.
func (s *Server) EnvFileRead() (read EnvFileRead, ok bool) {
	if s.EnvFile == "" {
		return EnvFileRead{}, false
	}
	read.Written = s.EnvFile
	x := &expander{s: s, r: Resolver{LookupEnv: os.LookupEnv}, asked: map[string]string{}}
	x.r.Home, _ = os.UserHomeDir()
	path, err := x.expand(s.EnvFile, "envFile")
	if err != nil || path == "" {
		return read, true
	}
	if read.Path, err = filepath.Abs(x.fromProject(path)); err != nil {
		read.Path = x.fromProject(path)
	}
	if real, err := filepath.EvalSymlinks(read.Path); err == nil {
		read.Real = real
		read.InProject = inFolder(s.project, real)
	} else {
		read.InProject = within(read.Path, s.project)
	}
	return read, true
}

// inFolder reports whether path, links resolved, is inside the folder
// dir, whose links are resolved too.
func inFolder(dir, path string) bool {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return within(path, dir)
}

// envFileDigest is the SHA-256 of what the entry's envFile holds now ("":
// it names none), so that an approval does not outlive a change to it;
// a file that cannot be read is "unreadable", which changes once it can.
func (s *Server) envFileDigest() string {
	read, ok := s.EnvFileRead()
	if !ok {
		return ""
	}
	if read.Path == "" {
		return "unresolved"
	}
	data, err := readEnvFile(read.Path)
	if err != nil {
		return "unreadable"
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
