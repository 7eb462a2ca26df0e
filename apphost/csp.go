package apphost

import (
	"fmt"
	"strings"
)

// defaultCSP is the sandbox's policy when the app declares no domains: the
// app may run its own inline code and nothing may leave the page.
var defaultCSP = map[string][]string{
	"default-src": {"'none'"},
	"script-src":  {"'unsafe-inline'"},
	"style-src":   {"'unsafe-inline'"},
	"img-src":     {"data:"},
	"media-src":   {"data:"},
	"font-src":    {"data:"},
	"connect-src": {"'none'"},
	"frame-src":   {"'none'"},
	"object-src":  {"'none'"},
	"base-uri":    {"'none'"},
	"form-action": {"'none'"},
}

var directiveOrder = []string{"default-src", "script-src", "style-src", "img-src", "media-src", "font-src", "connect-src", "frame-src", "object-src", "base-uri", "form-action"}

// BuildCSP is the sandbox page's Content-Security-Policy for an app's
// _meta.ui.csp: the default, plus the domains it declares
// (connectDomains → connect-src; resourceDomains → script, style, img,
// media and font sources; frameDomains → frame-src; baseUriDomains →
// base-uri). A domain containing ; , ' ", whitespace, a control character
// or anything outside printable ASCII is dropped, so no declaration can add
// a directive or reach the header as something else.
func BuildCSP(declared map[string]any) string {
	csp, _ := buildCSP(declared)
	return csp
}

// buildCSP is [BuildCSP], also returning the declared sources it dropped.
func buildCSP(declared map[string]any) (string, []string) {
	var rejected []string
	d := map[string][]string{}
	for k, v := range defaultCSP {
		d[k] = append([]string(nil), v...)
	}
	add := func(domains any, directives ...string) {
		list, _ := domains.([]any)
		for _, x := range list {
			domain, ok := x.(string)
			if !ok || !safeSource(domain) {
				rejected = append(rejected, fmt.Sprintf("%q", fmt.Sprint(x)))
				continue
			}
			for _, dir := range directives {
				if len(d[dir]) == 1 && d[dir][0] == "'none'" {
					d[dir] = nil
				}
				d[dir] = append(d[dir], domain)
			}
		}
	}
	add(declared["connectDomains"], "connect-src")
	add(declared["resourceDomains"], "script-src", "style-src", "img-src", "media-src", "font-src")
	add(declared["frameDomains"], "frame-src")
	add(declared["baseUriDomains"], "base-uri")
	var parts []string
	for _, dir := range directiveOrder {
		parts = append(parts, fmt.Sprintf("%s %s", dir, strings.Join(d[dir], " ")))
	}
	return strings.Join(parts, "; "), rejected
}

func safeSource(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r > '~' || strings.ContainsRune(";,'\"", r) {
			return false
		}
	}
	return true
}

// permissionFeatures maps the permissions an app may declare in
// _meta.ui.permissions to the browser features its frame is allowed.
var permissionFeatures = []struct{ key, feature string }{
	{"camera", "camera"},
	{"microphone", "microphone"},
	{"geolocation", "geolocation"},
	{"clipboardWrite", "clipboard-write"},
}

// permissionsPolicy is the app frame's allow attribute for the declared
// permissions; each is granted only when declared as an object.
func permissionsPolicy(declared map[string]any) string {
	var allow []string
	for _, p := range permissionFeatures {
		if _, ok := declared[p.key].(map[string]any); ok {
			allow = append(allow, p.feature)
		}
	}
	return strings.Join(allow, "; ")
}
