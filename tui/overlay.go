package tui

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// A modelLayer is a layer written against the Model, as every layer was
// before tui/layer: one screen over the tabs: an elicitation's form or URL
// consent card, a tool's or prompt's arguments form, the JSON editor, the
// app card, the help screen, the quit prompt. The layers lie in one stack
// (stack.layers, bottom first, the tabs under them all), and [Model.top]
// alone says which is on top: the top layer is drawn on top, receives the
// keys and supplies the footer, so the three cannot disagree. See
// docs/architecture.md, section "The inspector". New layers are written
// in tui/layer, against [layer.Layer], and stand on the stack through
// the adapter [hosted] (hosted.go); the rest move there one by one.
//
// A layer that leaves what is under it usable gets that as under: the app
// card draws itself above the tabs and hands them the keys it does not
// use; the quit prompt is only a footer over whatever it interrupts.
type modelLayer interface {
	// view draws the layer in h lines.
	view(m *Model, h int, under *level) string
	// key handles a key that reached the layer.
	key(m *Model, msg tea.KeyMsg, under *level) tea.Cmd
	// footer is the footer line while the layer is on top.
	footer(m *Model, under *level) string
}

// Where a layer opens: on top of the layers of its rank or lower, under
// those of a higher rank. Most layers are of one rank, so the newest is
// on top and takes the keys: an elicitation that arrives while a form, the
// JSON editor or help is open goes over it, and that one is back as it was
// once the elicitation is answered. Two are not:
const (
	// rankBackdrop: the app card lies on the tabs, under everything, as it
	// leaves them usable (it only takes n).
	rankBackdrop = iota
	rankLayer
	// rankPrompt: the quit prompt stays on top until it is answered. It
	// answers the person's last key, and what it asks covers every pending
	// elicitation, one that arrives meanwhile included.
	rankPrompt
)

func rank(l modelLayer) int {
	if l, ok := l.(*hosted); ok {
		return l.rank()
	}
	return rankLayer
}

// level is a place in the stack: a layer, and what lies under it. Below
// the stack's bottom lie the tabs.
type level struct {
	m *Model
	i int // index in m.layers; -1 is the tabs
}

// top is the level on top of the screen: the one place that decides what
// is drawn on top, takes the keys and gives the footer.
func (m *Model) top() *level { return &level{m, len(m.layers) - 1} }

func (lv *level) layer() modelLayer {
	if lv.i < 0 {
		return tabsLayer{}
	}
	return lv.m.layers[lv.i]
}

func (lv *level) under() *level              { return &level{lv.m, max(lv.i-1, -1)} }
func (lv *level) view(h int) string          { return lv.layer().view(lv.m, h, lv.under()) }
func (lv *level) footer() string             { return lv.layer().footer(lv.m, lv.under()) }
func (lv *level) key(msg tea.KeyMsg) tea.Cmd { return lv.layer().key(lv.m, msg, lv.under()) }

// stack is the overlay stack: the layers over the tabs, bottom first. The
// Model embeds it. Layers open and close within Update, at once, rather
// than through messages: a key typed right after the one that opened a
// layer must reach that layer.
type stack struct {
	layers []modelLayer
}

// open puts a layer on the stack, by its rank.
func (s *stack) open(l modelLayer) {
	i := len(s.layers)
	for i > 0 && rank(s.layers[i-1]) > rank(l) {
		i--
	}
	s.layers = slices.Insert(s.layers, i, l)
}

// close takes a layer off the stack, wherever it lies.
func (s *stack) close(l modelLayer) {
	s.layers = slices.DeleteFunc(s.layers, func(x modelLayer) bool { return x == l })
}

// replace puts next where old lies, or opens it if old is not there.
func (s *stack) replace(old, next modelLayer) {
	if i := slices.Index(s.layers, old); i >= 0 {
		s.layers[i] = next
		return
	}
	s.open(next)
}

// hostedOf is the place of l on the stack, or nil when it is not there.
func (s *stack) hostedOf(l layer.Layer) *hosted {
	for _, x := range s.layers {
		if h, ok := x.(*hosted); ok && h.l == l {
			return h
		}
	}
	return nil
}

// drop takes off the stack every hosted layer that gone says is gone.
func (s *stack) drop(gone func(layer.Layer) bool) {
	s.layers = slices.DeleteFunc(s.layers, func(x modelLayer) bool {
		h, ok := x.(*hosted)
		return ok && gone(h.l)
	})
}

// hosts lists the hosted layers that to picks (all when to is nil),
// bottom first, as they lie now: what is done to each may open or close
// others.
func (s *stack) hosts(to func(layer.Layer) bool) []*hosted {
	var out []*hosted
	for _, x := range s.layers {
		if h, ok := x.(*hosted); ok && (to == nil || to(h.l)) {
			out = append(out, h)
		}
	}
	return out
}

// findHosted is the hosted layer of type L nearest the top, if any.
func findHosted[L layer.Layer](s *stack) (L, bool) {
	for i := len(s.layers) - 1; i >= 0; i-- {
		if h, ok := s.layers[i].(*hosted); ok {
			if l, ok := h.l.(L); ok {
				return l, true
			}
		}
	}
	var zero L
	return zero, false
}

// typist is a layer that takes text, where a burst of characters in one
// key event is text, not keys.
type typist interface{ typesText() bool }

// key routes a key to the top layer. Fast typing, a paste or a slow link
// can deliver several characters as one key event: unless the top layer
// takes text, they are taken one by one, each going to what is on top
// after the one before.
func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	top := m.top()
	if t, ok := top.layer().(typist); (!ok || !t.typesText()) && msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
		var cmds []tea.Cmd
		for _, r := range msg.Runes {
			cmds = append(cmds, m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
		}
		return tea.Batch(cmds...)
	}
	return top.key(msg)
}

// formHolder is the topmost layer that holds a form, as the one list
// deliver takes (empty when none does): a message that is not a key (a
// form's countdown, cursor blinks, focus moves) goes to it, even under
// the quit prompt, so that its countdown runs on. Only one form may get
// them, as the huh form's own messages name no form.
func (s *stack) formHolder() []*hosted {
	hs := s.hosts(func(l layer.Layer) bool {
		f, ok := l.(layer.FormHolder)
		return ok && f.HoldsForm()
	})
	return hs[max(len(hs)-1, 0):]
}

// holdsForm reports whether a layer shows a form.
func holdsForm(l layer.Layer) bool {
	_, ok := l.(layer.FormHolder)
	return ok
}

// deliver gives msg to each of the hosted layers hs, bottom first, and
// applies what each answers: a form that settled (nativeform.DoneMsg,
// which does not say which form it came from), the poll's [layer.Poll],
// the terminal's new size, a [layer.Msg] to the layer it names.
func (m *Model) deliver(msg tea.Msg, hs []*hosted) tea.Cmd {
	var cmds []tea.Cmd
	for _, h := range hs {
		cmds = append(cmds, m.do(origin{from: h}, h.l.Update(msg)))
	}
	return tea.Batch(cmds...)
}
