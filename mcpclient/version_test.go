package mcpclient

import (
	"runtime/debug"
	"testing"
)

// TestVersionOf: the version is the module's when the build names one
// (go install …@v1.2.0, or go build's pseudo-version), else the commit
// built, +dirty when the tree had changes.
func TestVersionOf(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"go install at a tag", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0"},
		{"go build in a clone", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201154803-170e16326a65+dirty"},
			Settings: settings("vcs.revision", "170e16326a652a502848027af39e476a52facc31", "vcs.modified", "true")},
			"v0.0.0-20261201154803-170e16326a65+dirty"},
		{"a commit, no module version", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", "170e16326a652a502848027af39e476a52facc31", "vcs.modified", "false")}, "170e16326a65"},
		{"a changed tree", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", "170e16326a652a502848027af39e476a52facc31", "vcs.modified", "true")}, "170e16326a65+dirty"},
		{"nothing stamped", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := versionOf(tc.info, true); got != tc.want {
				t.Errorf("versionOf = %q, want %q", got, tc.want)
			}
		})
	}
	if got := versionOf(nil, false); got != "(devel)" {
		t.Errorf("without build info: %q", got)
	}
}

// TestReleaseStamp: a release build's stamped version wins over the build
// info, and its commit (shortened) and date are named beside it.
func TestReleaseStamp(t *testing.T) {
	saved := [3]string{releaseVersion, releaseCommit, releaseDate}
	t.Cleanup(func() { releaseVersion, releaseCommit, releaseDate = saved[0], saved[1], saved[2] })

	releaseVersion, releaseCommit, releaseDate = "", "", ""
	if got := Built(); got != "" {
		t.Errorf("unstamped build: Built = %q, want none", got)
	}
	releaseVersion, releaseCommit, releaseDate = "1.4.0", "170e16326a652a502848027af39e476a52facc31", "2026-12-06T10:00:00Z"
	if got := buildVersion(); got != "1.4.0" {
		t.Errorf("stamped build: version %q, want 1.4.0", got)
	}
	if got, want := Built(), "commit 170e16326a65, 2026-12-06T10:00:00Z"; got != want {
		t.Errorf("Built = %q, want %q", got, want)
	}
}
