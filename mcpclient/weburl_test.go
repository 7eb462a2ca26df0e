package mcpclient

import "testing"

// Only absolute http(s) URLs with a host are pages mcpeek opens.
func TestWebURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw  string
		want bool
	}{
		{"https://example.com/sign-in", true},
		{"http://127.0.0.1:8080/x", true},
		{"HTTP://EXAMPLE.COM", true},
		{"HtTpS://example.com", true},
		{"file:///etc/passwd", false},
		{"javascript:alert(1)", false},
		{"vscode://x", false},
		{"data:text/html,<script>alert(1)</script>", false},
		{"//example.com/x", false},
		{"/relative", false},
		{"https:///no-host", false},
		{"https://exa mple.com", false},
		{"https://example.com/\x1b]52;c;x\x07", false},
	} {
		u, err := WebURL(tc.raw)
		if got := err == nil; got != tc.want {
			t.Errorf("WebURL(%q) = %v, %v; want allowed %v", tc.raw, u, err, tc.want)
		}
	}
}
