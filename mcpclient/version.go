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

// A release build (.goreleaser.yaml) stamps these with -ldflags -X; every
// other build leaves them empty and the version comes from the build info.
var (
	releaseVersion string
	releaseCommit  string
	releaseDate    string
)

// buildVersion is the running binary's version: the release's when one
// was stamped, else versionOf the build info.
func buildVersion() string {
	if releaseVersion != "" {
		return releaseVersion
	}
	return versionOf(debug.ReadBuildInfo())
}

// Built names the commit and the date a release build was stamped with,
// as "commit 1a2b3c4d, 2026-12-06T10:00:00Z"; "" for any other build, whose
// version already names its commit.
func Built() string {
	var parts []string
	if releaseCommit != "" {
		parts = append(parts, "commit "+releaseCommit[:min(len(releaseCommit), 12)])
	}
	if releaseDate != "" {
		parts = append(parts, releaseDate)
	}
	return strings.Join(parts, ", ")
}
