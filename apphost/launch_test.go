package apphost

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// OpenPrivately gives the launcher the file:// URL of a private page that
// sends the browser on to the target, never the target itself; the page
// is gone once remove returns, or at once when the launcher fails.
func TestOpenPrivately(t *testing.T) {
	const target = "https://as.example/authorize?client_id=c&state=S3CR3T&code_challenge=x"
	var got string
	remove, err := OpenPrivately(func(u string) error { got = u; return nil }, target)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "file://") || strings.Contains(got, "S3CR3T") || strings.Contains(got, "as.example") {
		t.Fatalf("the launcher was given %q", got)
	}
	u, _ := url.Parse(got)
	page, err := os.ReadFile(u.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `url=https://as.example/authorize?client_id=c&amp;state=S3CR3T`) {
		t.Errorf("the page does not send the browser on: %s", page)
	}
	for path, want := range map[string]os.FileMode{u.Path: 0o600, filepath.Dir(u.Path): 0o700} {
		if info, err := os.Stat(path); err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: %v, mode %v, want %v", path, err, info.Mode().Perm(), want)
		}
	}
	remove()
	if _, err := os.Stat(filepath.Dir(u.Path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the launch page outlived remove: %v", err)
	}

	remove, err = OpenPrivately(func(u string) error { got = u; return errors.New("no browser") }, target)
	u, _ = url.Parse(got)
	if _, serr := os.Stat(filepath.Dir(u.Path)); err == nil || remove != nil || !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("a failed launch: err %v, page %v", err, serr)
	}
}

// The opener of pages servers and apps name opens http(s) alone: anything
// else is refused without reaching the browser.
func TestWebOnlyOpensOnlyWebPages(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url  string
		open bool
	}{
		{"file:///etc/passwd", false},
		{"javascript:alert(1)", false},
		{"vscode://x", false},
		{"HTTP://EXAMPLE.COM", true},
		{"https://example.com/x", true},
	} {
		var opened []string
		err := WebOnly(func(u string) error { opened = append(opened, u); return nil })(tc.url)
		if tc.open != (err == nil && len(opened) == 1) || !tc.open && len(opened) > 0 {
			t.Errorf("%s: err %v, opened %q; want opened %v", tc.url, err, opened, tc.open)
		}
	}
}
