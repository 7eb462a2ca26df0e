package tui

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// The layers of tui/layer lie in one stack over the tabs (stack.layers,
// bottom first, the tabs under them all): an elicitation's form or URL
// consent card, a tool's or prompt's arguments form, the JSON editor, the
// app card, the help screen, the quit prompt… [Model.top] alone says
// which is on top: the top layer is drawn on top, receives the keys and
// supplies the footer, so the three cannot disagree. See
// docs/architecture.md, section "The inspector".
//
// The stack holds the layers themselves. How the program draws one, gives
// it keys and takes its footer follows the optional interfaces it
// implements (layer.Banner, layer.Seethrough, layer.Footer…); what it
// answers is applied by Model.do (actions.go).
//
// A layer that leaves what is under it usable gets that as under: the app
// card draws itself above the tabs and hands them the keys it does not
// use; the quit prompt is only a footer over whatever it interrupts.

// rankOf is where a layer opens: on top of the layers of its rank or
// lower, under those of a higher rank. Most layers are [layer.Normal], so
// the newest is on top and takes the keys: an elicitation that arrives
// while a form, the JSON editor or help is open goes over it, and that
// one is back as it was once the elicitation is answered. Two are not:
// the app card ([layer.Backdrop]) lies on the tabs, under everything, as
// it leaves them usable (it only takes n); the quit prompt
// ([layer.Prompt]) stays on top until it is answered: it answers the
// person's last key, and what it asks covers every pending elicitation,
// one that arrives meanwhile included.
func rankOf(l layer.Layer) layer.Rank {
	if r, ok := l.(layer.Ranked); ok {
		return r.Rank()
	}
	return layer.Normal
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

// layer is the layer at lv, or nil for the tabs.
func (lv *level) layer() layer.Layer {
	if lv.i < 0 {
		return nil
	}
	return lv.m.layers[lv.i]
}

func (lv *level) under() *level { return &level{lv.m, max(lv.i-1, -1)} }

// view draws the level in height lines.
func (lv *level) view(height int) string {
	m, l := lv.m, lv.layer()
	switch l.(type) {
	case nil:
		return m.current().View(m.c.Width, height)
	case layer.Seethrough:
		return lv.under().view(height)
	case layer.Banner:
		banner := l.View(m.c.Width, height/2) + "\n"
		return banner + lv.under().view(height-lipgloss.Height(banner))
	default:
		return l.View(m.c.Width, height)
	}
}

// footer is the footer line while the level is on top.
func (lv *level) footer() string {
	m, l := lv.m, lv.layer()
	if _, ok := l.(layer.StatusFooter); ok && m.status.text != "" {
		return m.status.line(m.c.Styles)
	}
	switch l := l.(type) {
	case nil:
		return m.tabsFooter()
	case layer.Footer:
		return l.Footer(m.c.Width)
	case layer.Banner:
		return lv.under().footer()
	default:
		return m.c.KeyLine(l.Help()...)
	}
}

// key gives a key to the level, applying what its layer answers.
func (lv *level) key(msg tea.KeyMsg) tea.Cmd {
	m, l := lv.m, lv.layer()
	if l == nil {
		return m.tabsKey(msg)
	}
	if _, ok := l.(layer.StatusFooter); ok {
		m.status = statusMsg{} // the status line stays until the next key
	}
	return m.do(origin{l, lv.under(), msg}, l.Update(msg))
}

// stack is the overlay stack: the layers over the tabs, bottom first. The
// Model embeds it. Layers open and close within Update, at once, rather
// than through messages: a key typed right after the one that opened a
// layer must reach that layer.
type stack struct {
	layers []layer.Layer
}

// open puts a layer on the stack, by its rank.
func (s *stack) open(l layer.Layer) {
	i := len(s.layers)
	for i > 0 && rankOf(s.layers[i-1]) > rankOf(l) {
		i--
	}
	s.layers = slices.Insert(s.layers, i, l)
}

// close takes a layer off the stack, wherever it lies.
func (s *stack) close(l layer.Layer) {
	s.layers = slices.DeleteFunc(s.layers, func(x layer.Layer) bool { return x == l })
}

// replace puts next where old lies, or opens it if old is not there.
func (s *stack) replace(old, next layer.Layer) {
	if i := slices.Index(s.layers, old); i >= 0 {
		s.layers[i] = next
		return
	}
	s.open(next)
}

// holds reports whether l is on the stack.
func (s *stack) holds(l layer.Layer) bool { return slices.Contains(s.layers, l) }

// drop takes off the stack every layer that gone says is gone.
func (s *stack) drop(gone func(layer.Layer) bool) {
	s.layers = slices.DeleteFunc(s.layers, gone)
}

// pick lists the layers that to picks (all when to is nil), bottom
// first, as they lie now: what is done to each may open or close others.
func (s *stack) pick(to func(layer.Layer) bool) []layer.Layer {
	var out []layer.Layer
	for _, l := range s.layers {
		if to == nil || to(l) {
			out = append(out, l)
		}
	}
	return out
}

// findLayer is the layer of type L nearest the top, if any.
func findLayer[L layer.Layer](s *stack) (L, bool) {
	for i := len(s.layers) - 1; i >= 0; i-- {
		if l, ok := s.layers[i].(L); ok {
			return l, true
		}
	}
	var zero L
	return zero, false
}

// host opens l on the stack, telling it the room it has.
func (m *Model) host(l layer.Layer) tea.Cmd {
	m.open(l)
	return m.do(origin{from: l}, l.Update(m.bodySize()))
}

// key routes a key to the top layer. Fast typing, a paste or a slow link
// can deliver several characters as one key event: unless the top layer
// takes text, they are taken one by one, each going to what is on top
// after the one before.
func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	top := m.top()
	if t, ok := top.layer().(layer.Typist); (!ok || !t.TypesText()) && msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
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
func (s *stack) formHolder() []layer.Layer {
	ls := s.pick(func(l layer.Layer) bool {
		f, ok := l.(layer.FormHolder)
		return ok && f.HoldsForm()
	})
	return ls[max(len(ls)-1, 0):]
}

// holdsForm reports whether a layer shows a form.
func holdsForm(l layer.Layer) bool {
	_, ok := l.(layer.FormHolder)
	return ok
}

// deliver gives msg to each of the layers ls, bottom first, and applies
// what each answers: a form that settled (nativeform.DoneMsg, which does
// not say which form it came from), the poll's [layer.Poll], the
// terminal's new size, a [layer.Msg] to the layer it names.
func (m *Model) deliver(msg tea.Msg, ls []layer.Layer) tea.Cmd {
	var cmds []tea.Cmd
	for _, l := range ls {
		cmds = append(cmds, m.do(origin{from: l}, l.Update(msg)))
	}
	return tea.Batch(cmds...)
}
