package apphost

import "testing"

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
