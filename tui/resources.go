package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"
)

// resourceEntry is one row of the Resources tab: a resource or a
// resource template.
type resourceEntry struct {
	res  *mcp.Resource
	tmpl *mcp.ResourceTemplate
}

// label is the entry's title, else its name.
func (e resourceEntry) label() string {
	if e.res != nil {
		return cmp(e.res.Title, e.res.Name)
	}
	return cmp(e.tmpl.Title, e.tmpl.Name)
}

// uri is the resource's URI or the template's.
func (e resourceEntry) uri() string {
	if e.res != nil {
		return e.res.URI
	}
	return e.tmpl.URITemplate
}

// key names the entry among what enter read.
func (e resourceEntry) key() string {
	if e.res != nil {
		return "resource " + e.res.URI
	}
	return "template " + e.tmpl.URITemplate
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// resourceReadMsg brings what reading a resource (or a template's
// expansion) gave: its text for the pane, and its first binary content,
// which w saves as it is.
type resourceReadMsg struct {
	key, text string
	blob      *blobRead
}

// blobRead is a resource's binary content, decoded.
type blobRead struct {
	uri, mimeType string
	data          []byte
}

// visibleResources are the resources, then the templates, that the
// filter lets through (by label or URI).
func (m *Model) visibleResources() []resourceEntry {
	var out []resourceEntry
	p := &m.pick[tabResources]
	for _, r := range m.resources {
		if e := (resourceEntry{res: r}); p.Matches(e.label() + " " + e.uri()) {
			out = append(out, e)
		}
	}
	for _, t := range m.templates {
		if e := (resourceEntry{tmpl: t}); p.Matches(e.label() + " " + e.uri()) {
			out = append(out, e)
		}
	}
	return out
}

// selectedResource is the entry under the cursor.
func (m *Model) selectedResource() (resourceEntry, bool) {
	entries := m.visibleResources()
	if c := m.pick[tabResources].Cursor(); c < len(entries) {
		return entries[c], true
	}
	return resourceEntry{}, false
}

// resourcesView lists the resources and templates beside the selected
// one's description and what enter read.
func (m *Model) resourcesView(h int) string {
	lw := m.listWidth()
	entries := m.visibleResources()
	// Resources and templates are told apart each among their own kind.
	var uris [2][]string
	for _, e := range entries {
		kind := 0
		if e.tmpl != nil {
			kind = 1
		}
		uris[kind] = append(uris[kind], e.uri())
	}
	tails := append(uriTails(uris[0]), uriTails(uris[1])...)
	labels := make([]string, len(entries))
	for i, e := range entries {
		labels[i] = e.label()
	}
	names := resourceRows(labels, tails, lw-2)
	if m.marksShown() { // a column of marks: updated, subscribed
		names = resourceRows(labels, tails, lw-4)
		for i, e := range entries {
			mark := "  "
			if e.res != nil {
				mark = m.subscriptionMark(e.res.URI)
			}
			names[i] = mark + names[i]
		}
	}
	list := m.pick[tabResources].View(&m.c, widget.Names(names), m.listErr[tabResources], lw, h)
	return columns(&m.c, list, m.paneView(""), lw, m.focus[tabResources])
}

// uriTails are the URIs as a list shows them: without the part all of
// them share, up to a slash or a colon, so that what tells them apart
// shows first ("…/architecture.md" for demo://resource/static/document/
// architecture.md among its siblings).
func uriTails(uris []string) []string {
	out := make([]string, len(uris))
	for i, u := range uris { // redacted before the shared part is cut off
		out[i] = widget.Redact(u)
	}
	uris = out
	out = make([]string, len(uris))
	copy(out, uris)
	if len(uris) < 2 {
		return out
	}
	prefix := uris[0]
	for _, u := range uris[1:] {
		n := 0
		for n < len(prefix) && n < len(u) && prefix[n] == u[n] {
			n++
		}
		prefix = prefix[:n]
	}
	cut := strings.LastIndexAny(prefix, "/:")
	if cut < len("a://") { // too little in common to be worth eliding
		return out
	}
	for i, u := range uris {
		out[i] = "…" + u[cut:]
	}
	return out
}

// resourceRows are the list's rows, of width cells: each label, then
// the URI's telling part. A row too narrow for both shows its label, cut,
// unless another row's label cuts the same: then its URI, cut in the
// middle.
func resourceRows(labels, tails []string, width int) []string {
	const sep = " · "
	rows := make([]string, len(labels))
	cut := make([]bool, len(labels))
	seen := map[string]int{}
	for i := range labels {
		label, tail := strings.Join(strings.Fields(widget.Clean(labels[i])), " "), widget.Clean(tails[i])
		switch {
		case label == "" || label == tail || strings.HasSuffix(tail, "/"+label):
			rows[i] = cutMiddle(tail, width)
		case ansi.StringWidth(label+sep+tail) <= width:
			rows[i] = label + sep + tail
		default:
			rows[i], cut[i] = widget.Line(label, width), true
		}
		seen[rows[i]]++
	}
	for i := range rows {
		if cut[i] && seen[rows[i]] > 1 {
			rows[i] = cutMiddle(widget.Clean(tails[i]), width)
		}
	}
	return rows
}

// cutMiddle cuts a URI to width cells in its middle, keeping its last
// segment (what most often tells URIs apart) and as much of its start as
// fits.
func cutMiddle(uri string, width int) string {
	w := ansi.StringWidth(uri)
	if w <= width || width < 2 {
		return uri
	}
	end := uri
	if i := strings.LastIndexByte(uri, '/'); i >= 0 {
		end = uri[i:]
	}
	ew := ansi.StringWidth(end)
	if ew+1 >= width { // the last segment alone is too long: its end
		return "…" + ansi.TruncateLeft(uri, w-width+1, "")
	}
	return ansi.Truncate(uri, width-ew-1, "") + "…" + end
}

// resourceText is the Resources tab's pane: the selected resource or
// template, its URI whole, its MIME type and size where known, and what
// enter read from it.
func (m *Model) resourceText() string {
	e, ok := m.selectedResource()
	if !ok {
		return ""
	}
	s := m.c.Styles
	var b strings.Builder
	width, _ := m.paneSize()
	field := func(name, value string) {
		switch value = widget.Clean(value); {
		case value == "":
		case ansi.StringWidth(name+": "+value) > width && !strings.Contains(value, " "):
			// A long URI goes whole on a line of its own.
			b.WriteString(s.Dim.Render(name+":") + "\n" + value + "\n")
		default:
			b.WriteString(s.Dim.Render(name+": ") + value + "\n")
		}
	}
	b.WriteString(s.Title.Render(widget.Clean(e.label())) + "\n")
	hint := "enter reads the resource"
	if e.res != nil {
		r := e.res
		if r.Title != "" {
			field("name", r.Name)
		}
		field("uri", r.URI)
		field("mime type", r.MIMEType)
		if r.Size > 0 {
			field("size", byteSize(r.Size))
		}
		field("description", r.Description)
		if sub := m.subscriptionText(r.URI); sub != "" {
			b.WriteString(sub + "\n")
		}
	} else {
		t := e.tmpl
		if t.Title != "" {
			field("name", t.Name)
		}
		field("uri template", t.URITemplate)
		if tmpl, err := uritemplate.New(t.URITemplate); err == nil && len(tmpl.Varnames()) > 0 {
			field("variables", strings.Join(tmpl.Varnames(), ", "))
			hint = "enter fills in its variables and reads the resource"
		}
		field("mime type", t.MIMEType)
		field("description", t.Description)
	}
	if read, ok := m.reads[e.key()]; ok {
		if m.blobs[e.key()] != nil {
			read += s.Dim.Render(m.c.Keys.Tabs.Save.Help().Key+" saves its bytes to a file, as they are") + "\n"
		}
		return b.String() + "\n" + read
	}
	return b.String() + "\n" + s.Dim.Render(hint)
}

// byteSize is a size in bytes, with its KiB or MiB when large.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB (%d bytes)", float64(n)/(1<<20), n)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB (%d bytes)", float64(n)/(1<<10), n)
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// openResource reads the selected resource; for a template, it first
// asks for the template's variables with a form, and reads the URI they
// expand it to (RFC 6570).
func (m *Model) openResource() tea.Cmd {
	e, ok := m.selectedResource()
	if !ok || m.conn == nil {
		return nil
	}
	if e.res != nil {
		return m.readResource(e.key(), e.res.URI)
	}
	tmpl, err := uritemplate.New(e.tmpl.URITemplate)
	if err != nil {
		m.setRead(e.key(), m.c.Styles.Err.Render("error: ")+widget.Clean(fmt.Sprintf("the URI template %s: %v", e.tmpl.URITemplate, err)))
		return nil
	}
	names := tmpl.Varnames()
	if len(names) == 0 {
		return m.readResource(e.key(), tmpl.Raw())
	}
	props := map[string]any{}
	for _, n := range names {
		props[n] = map[string]any{"type": "string", "title": n}
	}
	schema, err := formschema.ParseWithOrder(map[string]any{"type": "object", "properties": props, "required": []string{}}, names)
	if err != nil {
		m.setRead(e.key(), m.c.Styles.Err.Render("error: ")+widget.Clean(err.Error()))
		return nil
	}
	schema = prefill(schema, m.runs.vars[tmpl.Raw()]) // the variables last given
	ref := &mcp.CompleteReference{Type: "ref/resource", URI: e.tmpl.URITemplate}
	return m.openArgsCompleting("Variables of "+e.tmpl.URITemplate, schema, ref, func(args map[string]any) tea.Cmd {
		if m.runs.vars == nil {
			m.runs.vars = map[string]map[string]any{}
		}
		m.runs.vars[tmpl.Raw()] = args
		vals := uritemplate.Values{}
		for k, v := range args {
			vals.Set(k, uritemplate.String(fmt.Sprint(v)))
		}
		uri, err := tmpl.Expand(vals)
		if err != nil {
			m.setRead(e.key(), m.c.Styles.Err.Render("error: ")+widget.Clean(fmt.Sprintf("expand %s: %v", tmpl.Raw(), err)))
			return nil
		}
		return m.readResource(e.key(), uri)
	})
}

func (m *Model) setRead(key, text string) {
	if m.reads == nil {
		m.reads = map[string]string{}
	}
	m.reads[key] = text
}

// readDone shows what a read gave, under the entry that asked for it: a
// resource updated before is now read.
func (m *Model) readDone(msg resourceReadMsg) {
	m.setRead(msg.key, msg.text)
	if m.blobs == nil {
		m.blobs = map[string]*blobRead{}
	}
	m.blobs[msg.key] = msg.blob
	if uri, ok := strings.CutPrefix(msg.key, "resource "); ok {
		delete(m.subs.unread, uri)
	}
}

// readResource reads a URI for an entry of the Resources tab.
func (m *Model) readResource(key, uri string) tea.Cmd {
	m.setRead(key, m.c.Styles.Dim.Render("reading "+widget.Clean(uri)+"…"))
	conn := m.conn
	return func() tea.Msg {
		text, blob := readResource(conn, uri)
		return resourceReadMsg{key, text, blob}
	}
}

func readResource(conn *mcpclient.Conn, uri string) (string, *blobRead) {
	ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
	defer cancel()
	res, err := conn.Session().ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "error: " + widget.Clean(err.Error()), nil
	}
	var b strings.Builder
	var blob *blobRead
	for _, c := range res.Contents {
		fmt.Fprintf(&b, "%s (%s)\n", widget.Clean(c.URI), widget.Clean(c.MIMEType))
		switch {
		case c.Text != "":
			b.WriteString(widget.NewStyles().ColourJSON(widget.Clean(widget.PrettyText(c.Text))) + "\n")
		case len(c.Blob) > 0:
			fmt.Fprintf(&b, "[binary, %d bytes]\n", len(c.Blob))
			if blob == nil {
				blob = &blobRead{uri: c.URI, mimeType: c.MIMEType, data: c.Blob}
			}
		}
	}
	return b.String(), blob
}
