// The Resources tab: the server's resources, then its resource templates,
// beside the selected one's description and what enter read from it.
// enter reads a resource; a template's variables are first asked in a
// form, and the URI they expand it to (RFC 6570) is read. s subscribes to
// a resource's updates (subscribe.go).

package page

import (
	"fmt"
	"mime"
	"net/url"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"
)

// ResourceList is what listing the server's resources and templates
// gave, and why the list is missing or short (nil when whole). The
// program sends it when the lists are loaded; the selection stays on the
// entry it was on.
type ResourceList struct {
	Resources []*mcp.Resource
	Templates []*mcp.ResourceTemplate
	Err       error
}

// ResourcesStatus is what the Resources tab knows of the connection: the
// program sends it after every message.
type ResourcesStatus struct {
	Conn         bool // there is a connection to read from
	Connected    bool // and it is up
	CanSubscribe bool // the server offers resource subscriptions
}

// ReadResource asks the program to read URI (resources/read) for the
// entry named Key, and send what it gave back as a [ResourceRead]. Update:
// it is read again because the server said it changed.
type ReadResource struct {
	Key, URI string
	Update   bool
}

// ResourceRead is what reading a resource for a [ReadResource] gave:
// its contents, or why not.
type ResourceRead struct {
	Key, URI string
	Result   *mcp.ReadResourceResult
	Err      error
	Update   bool
}

// Blob is a resource's binary content, decoded.
type Blob struct {
	URI, MIMEType string
	Data          []byte
}

// AskVariables asks the program for a template's variables, in a form
// of Schema whose fields start from Last, completed against Ref; what the
// person fills in goes to Then, whose action the program applies.
type AskVariables struct {
	Title  string
	Schema *formschema.Schema
	Last   map[string]any
	Ref    *mcp.CompleteReference
	Then   func(args map[string]any) Action
}

// Note asks the program to say Text on the status line, as an error or
// not, until the next key.
type Note struct {
	Text string
	Err  bool
}

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

// Resources is the Resources tab.
type Resources struct {
	c       *widget.Common
	room    tea.WindowSizeMsg
	list    widget.List
	pane    widget.Pane
	focused bool // ↑/↓ scroll the pane rather than move the list

	lists  ResourceList
	status ResourcesStatus
	reads  map[string]string         // per entry, what enter read
	blobs  map[string]*Blob          // per entry, the bytes it read, if binary
	vars   map[string]map[string]any // per template, the variables last given
	subs   subscriptions
	when   map[string]time.Time // per resource, when the server last said it changed
}

// NewResources is the Resources tab, drawn with c's styles and keys.
func NewResources(c *widget.Common) *Resources {
	return &Resources{c: c, reads: map[string]string{}, blobs: map[string]*Blob{}, vars: map[string]map[string]any{}, subs: newSubscriptions(), when: map[string]time.Time{}}
}

// Title is "Resources".
func (*Resources) Title() string { return "Resources" }

// Help is the pane's keys while it is focused, else the list's.
func (p *Resources) Help() []key.Binding { return listOrPaneHelp(p.c, p.focused) }

// Filtering reports whether the list's filter is being typed.
func (p *Resources) Filtering() bool { return p.list.Filtering() }

// Copy is the pane's text, as y copies it.
func (p *Resources) Copy() string { return ansi.Strip(widget.Redact(p.text())) }

// Save is what w saves, when it is not the pane's text: the bytes of the
// selected entry's binary content as they are, and a name for them.
func (p *Resources) Save() (name string, data []byte, ok bool) {
	e, ok := p.selected()
	if !ok || p.blobs[e.key()] == nil {
		return "", nil, false
	}
	b := p.blobs[e.key()]
	return blobName(b), b.Data, true
}

// Focus does nothing: the list and pane keep their place.
func (*Resources) Focus(bool) {}

// Update takes the lists, the reads and the subscriptions' news, the
// room, and the keys and wheel of the list and the pane.
func (p *Resources) Update(msg tea.Msg) Action {
	var a Action
	switch msg := msg.(type) {
	case ResourceList:
		p.relist(msg)
	case ResourcesStatus:
		p.status = msg
	case ResourceRead:
		a = p.readDone(msg)
	case Subscribed:
		a = p.subscribed(msg)
	case ResourceUpdated:
		a = p.updated(msg)
	case NewConnection:
		p.subs = newSubscriptions() // subscriptions belong to a connection
	case tea.WindowSizeMsg:
		p.room = msg
	case tea.MouseMsg:
		p.pane.Wheel(msg)
	case tea.KeyMsg:
		a = p.key(msg)
	}
	p.pane.Set(widget.Redact(p.text()), detailWidth(p.room.Width), p.room.Height-1)
	return a
}

func (p *Resources) key(msg tea.KeyMsg) Action {
	k := p.c.Keys.Tabs
	if p.list.Filtering() {
		p.list.Update(msg, p.c.Keys, len(p.visible()))
		return nil
	}
	switch {
	case key.Matches(msg, k.Open):
		return p.open()
	case key.Matches(msg, k.Subscribe):
		return p.toggleSubscription()
	case key.Matches(msg, k.Focus):
		p.focused = true
	case key.Matches(msg, k.Back):
		p.focused = false
	case p.pane.Scroll(msg, k, p.focused):
	case key.Matches(msg, k.Filter, k.Up, k.Down):
		p.list.Update(msg, p.c.Keys, len(p.visible()))
	default:
		return layer.Pass{}
	}
	return nil
}

// relist takes new lists, keeping the selection on the entry it was on:
// where an entry was added or removed before it, the cursor follows it;
// where it left the list, the cursor stays in its place. No lists at all
// (a reconnection drops them until they are loaded again) leave the
// cursor where it was.
func (p *Resources) relist(lists ResourceList) {
	kept, had := p.selected()
	p.lists = lists
	if len(lists.Resources)+len(lists.Templates) == 0 && lists.Err == nil {
		return
	}
	entries := p.visible()
	p.list.SetLen(len(entries))
	if !had {
		return
	}
	for i, e := range entries {
		if e.key() == kept.key() {
			p.list.Select(i)
			return
		}
	}
}

// visible are the resources, then the templates, that the filter lets
// through (by label or URI).
func (p *Resources) visible() []resourceEntry {
	var out []resourceEntry
	for _, r := range p.lists.Resources {
		if e := (resourceEntry{res: r}); p.list.Matches(e.label() + " " + e.uri()) {
			out = append(out, e)
		}
	}
	for _, t := range p.lists.Templates {
		if e := (resourceEntry{tmpl: t}); p.list.Matches(e.label() + " " + e.uri()) {
			out = append(out, e)
		}
	}
	return out
}

// selected is the entry under the cursor.
func (p *Resources) selected() (resourceEntry, bool) {
	entries := p.visible()
	if c := p.list.Cursor(); c < len(entries) {
		return entries[c], true
	}
	return resourceEntry{}, false
}

// Shown is the key of the entry selected, and whether the pane shows
// what reading it gave (or is reading it): what + saves is that read.
func (p *Resources) Shown() (key string, read bool) {
	e, ok := p.selected()
	if !ok {
		return "", false
	}
	_, read = p.reads[e.key()]
	return e.key(), read
}

// View lists the resources and templates beside the selected one's
// description and what enter read.
func (p *Resources) View(width, height int) string {
	lw := listWidth(width)
	entries := p.visible()
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
	if p.subs.marksShown() { // a column of marks: updated, subscribed
		names = resourceRows(labels, tails, lw-4)
		for i, e := range entries {
			mark := "  "
			if e.res != nil {
				mark = p.subs.mark(e.res.URI)
			}
			names[i] = mark + names[i]
		}
	}
	list := p.list.View(p.c, widget.Names(names), p.lists.Err, lw, height)
	return columns(p.c, list, p.pane.View(p.c, ""), lw, p.focused)
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

// text is the pane: the selected resource or template, its URI whole,
// its MIME type and size where known, and what enter read from it.
func (p *Resources) text() string {
	e, ok := p.selected()
	if !ok {
		return ""
	}
	s := p.c.Styles
	var b strings.Builder
	width := detailWidth(p.room.Width)
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
		if sub := p.subscriptionText(r.URI); sub != "" {
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
	if read, ok := p.reads[e.key()]; ok {
		if p.blobs[e.key()] != nil {
			read += s.Dim.Render(p.c.Keys.Tabs.Save.Help().Key+" saves its bytes to a file, as they are") + "\n"
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

// open reads the selected resource; for a template, it first asks for
// the template's variables with a form, and reads the URI they expand it
// to (RFC 6570).
func (p *Resources) open() Action {
	e, ok := p.selected()
	if !ok || !p.status.Conn {
		return nil
	}
	if e.res != nil {
		return p.read(e.key(), e.res.URI)
	}
	tmpl, err := uritemplate.New(e.tmpl.URITemplate)
	if err != nil {
		p.reads[e.key()] = p.c.Styles.Err.Render("error: ") + widget.Clean(fmt.Sprintf("the URI template %s: %v", e.tmpl.URITemplate, err))
		return nil
	}
	names := tmpl.Varnames()
	if len(names) == 0 {
		return p.read(e.key(), tmpl.Raw())
	}
	props := map[string]any{}
	for _, n := range names {
		props[n] = map[string]any{"type": "string", "title": n}
	}
	schema, err := formschema.ParseWithOrder(map[string]any{"type": "object", "properties": props, "required": []string{}}, names)
	if err != nil {
		p.reads[e.key()] = p.c.Styles.Err.Render("error: ") + widget.Clean(err.Error())
		return nil
	}
	ref := &mcp.CompleteReference{Type: "ref/resource", URI: e.tmpl.URITemplate}
	return AskVariables{Title: "Variables of " + e.tmpl.URITemplate, Schema: schema, Last: p.vars[tmpl.Raw()], Ref: ref,
		Then: func(args map[string]any) Action {
			p.vars[tmpl.Raw()] = args // the variables last given
			vals := uritemplate.Values{}
			for k, v := range args {
				vals.Set(k, uritemplate.String(fmt.Sprint(v)))
			}
			uri, err := tmpl.Expand(vals)
			if err != nil {
				p.reads[e.key()] = p.c.Styles.Err.Render("error: ") + widget.Clean(fmt.Sprintf("expand %s: %v", tmpl.Raw(), err))
				return nil
			}
			return p.read(e.key(), uri)
		}}
}

// read asks the program to read a URI for an entry, saying meanwhile
// that it is read.
func (p *Resources) read(key, uri string) Action {
	p.reads[key] = p.c.Styles.Dim.Render("reading " + widget.Clean(uri) + "…")
	return ReadResource{Key: key, URI: uri}
}

// readDone shows what a read gave, under the entry that asked for it: a
// resource updated before is now read. A read again after an update asks
// for another when the resource changed meanwhile.
func (p *Resources) readDone(msg ResourceRead) Action {
	if msg.Update {
		delete(p.subs.rereads, msg.URI)
	}
	p.reads[msg.Key], p.blobs[msg.Key] = readText(msg)
	if uri, ok := strings.CutPrefix(msg.Key, "resource "); ok {
		delete(p.subs.unread, uri)
	}
	if msg.Update && p.subs.again[msg.URI] {
		delete(p.subs.again, msg.URI)
		return p.reread(msg.URI)
	}
	return nil
}

// readText is what a read shows in the pane, and its first binary
// content.
func readText(msg ResourceRead) (string, *Blob) {
	if msg.Err != nil {
		return "error: " + widget.Clean(msg.Err.Error()), nil
	}
	var b strings.Builder
	var blob *Blob
	for _, c := range msg.Result.Contents {
		fmt.Fprintf(&b, "%s (%s)\n", widget.Clean(c.URI), widget.Clean(c.MIMEType))
		switch {
		case c.Text != "":
			b.WriteString(widget.NewStyles().ColourJSON(widget.Clean(widget.PrettyText(c.Text))) + "\n")
		case len(c.Blob) > 0:
			fmt.Fprintf(&b, "[binary, %d bytes]\n", len(c.Blob))
			if blob == nil {
				blob = &Blob{URI: c.URI, MIMEType: c.MIMEType, Data: c.Blob}
			}
		}
	}
	return b.String(), blob
}

// safeName is what a file may be named after: letters, digits, dots,
// dashes and underscores, not starting with a dot.
var safeName = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]*$`)

// blobName suggests a file name for a resource's bytes: its URI's last
// segment when that is a plain name, else one with an extension for its
// MIME type.
func blobName(b *Blob) string {
	if u, err := url.Parse(b.URI); err == nil {
		if base := path.Base(u.Path); safeName.MatchString(base) && len(base) <= 100 {
			return base
		}
	}
	ext := ".bin"
	if exts, err := mime.ExtensionsByType(b.MIMEType); err == nil && len(exts) > 0 {
		ext = exts[0]
	}
	return "mcpeek-resource" + ext
}
