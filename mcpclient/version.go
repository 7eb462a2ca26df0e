package mcpclient

import (
	"runtime/debug"
	"strings"
)

// versionOf is mcpeek's version as the build stamped it: the module's
// version (go install …@v1.2.0, or the pseudo-version go build derives
// from the repository), else the commit it was built from, with +dirty
// when the tree had changes; "(devel)" when the build says neither.
func versionOf(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "(devel)"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var revision, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if revision == "" {
		return "(devel)"
	}
	revision = revision[:min(len(revision), 12)]
	if modified == "true" {
		revision += "+dirty"
	}
	return strings.TrimSpace(revision)
}

// buildVersion is the running binary's version (versionOf).
func buildVersion() string { return versionOf(debug.ReadBuildInfo()) }
