package surface

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Diff compares two surfaces and classifies each difference by the rule
// it falls under. cfg (nil: none) sets levels and accepts findings until
// their dates, judged at now. The removals of the resources a removed
// template covers are one finding (groupBehindTemplates). version-not-bumped is added when an ERR
// finding stands and serverInfo.version's major did not change.
func Diff(old, new *Surface, cfg *Config, now time.Time) []Finding {
	var fs []Finding
	fs = append(fs, serverFindings(old, new)...)
	fs = append(fs, toolFindings(old.Tools, new.Tools)...)
	fs = append(fs, itemFindings(KindResource, "resources", "uri", old.Resources, new.Resources)...)
	fs = append(fs, itemFindings(KindTemplate, "resourceTemplates", "uriTemplate", old.ResourceTemplates, new.ResourceTemplates)...)
	fs = append(fs, promptFindings(old.Prompts, new.Prompts)...)
	cfg.apply(fs, now)
	fs = groupBehindTemplates(fs, cfg, now)
	if len(Failing(fs, ERR)) > 0 && !majorBumped(str(old.ServerInfo["version"]), str(new.ServerInfo["version"])) {
		f := []Finding{finding("version-not-bumped", "/serverInfo/version",
			fmt.Sprintf("breaking changes, but serverInfo.version %s → %s does not bump the major version", shown(old.ServerInfo["version"]), shown(new.ServerInfo["version"])))}
		cfg.apply(f, now)
		fs = append(fs, f...)
	}
	sortFindings(fs)
	return fs
}

// majorBumped reports whether version new has another major version than
// old: the first number, or for 0.x the second (0.x minors may break, as
// Cargo reads semver). An unreadable version bumps when it changed.
func majorBumped(old, new string) bool {
	om, okO := major(old)
	nm, okN := major(new)
	if !okO || !okN {
		return old != new
	}
	return om != nm
}

func major(v string) (string, bool) {
	parts := strings.SplitN(strings.TrimPrefix(strings.TrimSpace(v), "v"), ".", 3)
	for _, p := range parts[:min(2, len(parts))] {
		if _, err := strconv.Atoi(p); err != nil {
			return "", false
		}
	}
	if parts[0] == "0" && len(parts) > 1 {
		return "0." + parts[1], true
	}
	return parts[0], true
}

// serverFindings compares what is not an item: the server's name,
// capabilities, extensions, protocol revisions.
func serverFindings(old, new *Surface) []Finding {
	var fs []Finding
	add := func(key, ptr, msg string) { fs = append(fs, finding(key, ptr, msg)) }
	if on, nn := str(old.ServerInfo["name"]), str(new.ServerInfo["name"]); on != "" && nn != "" && on != nn {
		add("server-name-changed", "/serverInfo/name", fmt.Sprintf("serverInfo.name %q → %q: a client that knows the server by its name (an allow-list, stored approvals, logs) no longer finds it", on, nn))
	}
	fs = append(fs, revisionFindings(old, new)...)
	if ov, nv := old.ProtocolVersion, new.ProtocolVersion; ov != nv {
		if new.ProbedRevisions[ov] == RevisionAccepted {
			add("protocol-version-changed", "/protocolVersion", fmt.Sprintf("the surfaces were taken on different revisions, %s → %s, and the new server still accepts %s: take both on one (--protocol) to compare like with like", ov, nv, ov))
		} else {
			add("protocol-version-changed", "/protocolVersion", fmt.Sprintf("the surfaces were taken on different revisions, %s → %s: compare surfaces of one revision (--protocol), or the server no longer negotiates the old one", ov, nv))
		}
	}
	oc, nc := old.Capabilities, new.Capabilities
	for _, k := range slices.Sorted(maps.Keys(union(oc, nc))) {
		if k == "extensions" {
			continue
		}
		ptr := "/capabilities/" + escapePointer(k)
		ov, okO := oc[k]
		nv, okN := nc[k]
		switch {
		case okO && !okN:
			add("capability-removed", ptr, fmt.Sprintf("capability %s is no longer offered: a client using it fails", k))
		case !okO && okN:
			add("capability-added", ptr, fmt.Sprintf("capability %s is now offered", k))
		default:
			fs = append(fs, subCapabilities(ptr, k, ov, nv)...)
		}
	}
	oe, _ := oc["extensions"].(map[string]any)
	ne, _ := nc["extensions"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(union(oe, ne))) {
		ptr := "/capabilities/extensions/" + escapePointer(k)
		ov, okO := oe[k]
		nv, okN := ne[k]
		switch {
		case okO && !okN:
			add("extension-removed", ptr, fmt.Sprintf("extension %s is no longer offered: a client using it fails", k))
		case !okO && okN:
			add("extension-added", ptr, fmt.Sprintf("extension %s is now offered", k))
		default:
			fs = append(fs, subCapabilities(ptr, "extension "+k, ov, nv)...)
		}
	}
	return fs
}

// subCapabilities compares the settings of one capability (listChanged,
// subscribe, an extension's members): a setting a client may rely on is
// what it receives, so one that goes, or turns false, breaks it.
func subCapabilities(ptr, name string, old, new any) []Finding {
	om, _ := old.(map[string]any)
	nm, _ := new.(map[string]any)
	var fs []Finding
	for _, k := range slices.Sorted(maps.Keys(union(om, nm))) {
		ov, okO := om[k]
		nv, okN := nm[k]
		p := ptr + "/" + escapePointer(k)
		switch {
		case jsonEqual(ov, nv):
		case okO && ov != false && (!okN || nv == false):
			fs = append(fs, finding("capability-removed", p, fmt.Sprintf("%s no longer offers %s: a client using it fails", name, k)))
		case okO && okN && ov != false && nv != false:
			fs = append(fs, finding("capability-changed", p, fmt.Sprintf("%s's %s changed: %s → %s", name, k, shown(ov), shown(nv))))
		default:
			fs = append(fs, finding("capability-added", p, fmt.Sprintf("%s now offers %s", name, k)))
		}
	}
	return fs
}

// byKey indexes items by their identifying key.
func byKey(items []Item, key string) map[string]Item {
	m := make(map[string]Item, len(items))
	for _, it := range items {
		m[str(it[key])] = it
	}
	return m
}

// itemFindings compares resources or templates: removed, added, and the
// MIME type of what a client reads.
func itemFindings(kind, list, key string, old, new []Item) []Finding {
	var fs []Finding
	om, nm := byKey(old, key), byKey(new, key)
	at := func(rule, name, ptr, msg string) {
		f := finding(rule, ptr, msg)
		f.list = list
		if kind == KindResource {
			f.Resource = name
		} else {
			f.Template = name
		}
		fs = append(fs, f)
	}
	for _, name := range slices.Sorted(maps.Keys(om)) {
		o := om[name]
		n, ok := nm[name]
		if !ok {
			at(kind+"-removed", name, "", fmt.Sprintf("%s %s is gone: a client reading it fails", kind, name))
			continue
		}
		if om, nm := str(o["mimeType"]), str(n["mimeType"]); om != nm {
			at(kind+"-mime-type-changed", name, "/mimeType", fmt.Sprintf("MIME type %q → %q: a client may not read what it receives", om, nm))
		}
		if !jsonEqual(o["_meta"], n["_meta"]) {
			at(kind+"-ui-changed", name, "/_meta/ui", "its _meta.ui changed")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(nm)) {
		if _, ok := om[name]; !ok {
			at(kind+"-added", name, "", fmt.Sprintf("new %s %s", kind, name))
		}
	}
	return fs
}

// promptFindings compares prompts and their arguments, which a client
// sends: a new required argument breaks it. A removed prompt and an added
// one likely the same are hinted as a rename (see renames).
func promptFindings(old, new []Item) []Finding {
	var fs []Finding
	om, nm := byKey(old, "name"), byKey(new, "name")
	at := func(key, name, ptr, msg string) {
		f := finding(key, ptr, msg)
		f.Prompt, f.list = name, "prompts"
		fs = append(fs, f)
	}
	var removed, added []string
	for _, name := range slices.Sorted(maps.Keys(om)) {
		n, ok := nm[name]
		if !ok {
			removed = append(removed, name)
			at("prompt-removed", name, "", fmt.Sprintf("prompt %s is gone: a client getting it fails", name))
			continue
		}
		o := om[name]
		if !jsonEqual(o["description"], n["description"]) {
			at("prompt-description-changed", name, "/description", "its description changed")
		}
		promptArgFindings(o, n, func(key, ptr, msg string) { at(key, name, ptr, msg) })
	}
	for _, name := range slices.Sorted(maps.Keys(nm)) {
		if _, ok := om[name]; !ok {
			added = append(added, name)
			at("prompt-added", name, "", fmt.Sprintf("new prompt %s", name))
		}
	}
	compatible := func(o, n string) bool {
		var broke bool
		promptArgFindings(om[o], nm[n], breaking(&broke))
		return !broke
	}
	sameShape := func(o, n string) bool { return argumentsShape(om[o]).equal(argumentsShape(nm[n])) }
	for _, c := range renames(removed, added, compatible, sameShape) {
		at("prompt-renamed?", c.old, "", c.hint(KindPrompt, "compatible arguments of the same names", "its new arguments break a client of the old ones"))
	}
	return fs
}

// promptArgFindings compares the arguments of two versions of a prompt.
func promptArgFindings(o, n Item, emit emitter) {
	oa, na := promptArgs(o), promptArgs(n)
	for _, arg := range slices.Sorted(maps.Keys(union(oa, na))) {
		ov, inO := oa[arg].(map[string]any)
		nv, inN := na[arg].(map[string]any)
		reqO, reqN := inO && ov["required"] == true, inN && nv["required"] == true
		ptr := "/arguments/" + escapePointer(arg)
		switch {
		case reqN && !reqO && !inO:
			emit("prompt-required-arg-added", ptr, fmt.Sprintf("new required argument %q: a client that does not send it fails", arg))
		case reqN && !reqO:
			emit("prompt-required-arg-added", ptr, fmt.Sprintf("argument %q is now required: a client that does not send it fails", arg))
		case !inO:
			emit("prompt-optional-arg-added", ptr, fmt.Sprintf("new optional argument %q", arg))
		case !inN:
			emit("prompt-arg-removed", ptr, fmt.Sprintf("argument %q removed: what a client sends for it is ignored or refused", arg))
		case reqO && !reqN:
			emit("prompt-arg-relaxed", ptr, fmt.Sprintf("argument %q is now optional", arg))
		}
	}
}

// promptArgs indexes a prompt's arguments by name. The pointer names an
// argument rather than its place, which moves when one is added before it.
func promptArgs(p Item) map[string]any {
	out := map[string]any{}
	args, _ := p["arguments"].([]any)
	for _, a := range args {
		if m, ok := a.(map[string]any); ok {
			out[str(m["name"])] = m
		}
	}
	return out
}
