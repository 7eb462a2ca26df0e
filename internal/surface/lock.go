package surface

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// LockFile is where a project commits its server's surface, from its root.
const LockFile = "mcpeek/surface.lock.json"

// LockStatus is a live server compared with the lock a directory holds:
// what the inspector's header and its diff view show.
type LockStatus struct {
	// Path is the lock file's.
	Path     string
	Findings []Finding
	Counts   Counts
}

// Header is the status in a few words for the inspector's header, "2 ERR,
// 1 WARN since the lock"; "" when the server matches its lock (accepted
// findings aside).
func (s *LockStatus) Header() string {
	if s == nil {
		return ""
	}
	var parts []string
	for _, p := range []struct {
		n     int
		level Level
	}{{s.Counts.ERR, ERR}, {s.Counts.WARN, WARN}, {s.Counts.INFO, INFO}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.level))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ") + " since the lock"
}

// Report is the status as a report, for the diff view (Report.Write
// "text").
func (s *LockStatus) Report() *Report {
	return &Report{Old: Side{Label: s.Path}, New: Side{Label: "the connected server"}, FailOn: ERR, Findings: s.Findings}
}

// CheckLock compares live with the lock in dir (LockFile), by the rules and
// dir's diff config (DefaultConfig) when it has one; nil, nil when dir has
// no lock. A live surface without probes (Live's) says nothing of the
// revisions it was not taken on, so none is reported unknown.
func CheckLock(dir string, live *Surface, now time.Time) (*LockStatus, error) {
	path := filepath.Join(dir, LockFile)
	data, err := safefile.Read(path)
	if absent(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	lock, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	cfg, err := ProjectConfig(dir)
	if err != nil {
		return nil, err
	}
	// The inspector's connection probes no other revision: what it cannot
	// tell of them is not news since the lock.
	findings := slices.DeleteFunc(Diff(lock, live, cfg, now), func(f Finding) bool { return f.ID == "protocol-revision-unknown" && live.ProbedRevisions == nil })
	return &LockStatus{Path: path, Findings: findings, Counts: Count(findings)}, nil
}

// CheckConn reads the surface of the server conn is connected to and
// compares it with the lock in dir (CheckLock); nil, nil when dir has no
// lock, without asking the server anything.
func CheckConn(ctx context.Context, conn *mcpclient.Conn, dir string, now time.Time) (*LockStatus, error) {
	if _, err := os.Stat(filepath.Join(dir, LockFile)); absent(err) {
		return nil, nil
	}
	live, err := Live(ctx, conn)
	if err != nil {
		return nil, err
	}
	return CheckLock(dir, live, now)
}

// ProjectConfig reads the diff config of the project at dir
// (DefaultConfig); nil, nil when it has none.
func ProjectConfig(dir string) (*Config, error) {
	cfg, err := LoadConfig(filepath.Join(dir, DefaultConfig))
	if absent(err) {
		return nil, nil
	}
	return cfg, err
}

// absent reports whether err says a file is not there: missing, or a
// file where its folder would be.
func absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
