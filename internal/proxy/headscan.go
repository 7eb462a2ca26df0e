package proxy

import (
	"encoding/binary"
	"encoding/json"
	"unicode"
	"unicode/utf8"
)

// headScan reads the head of one JSON message in a single pass, checking
// that the whole message is JSON as json.Valid does, and reading its
// top-level method, id, result and error as json.Unmarshal into a head
// does (keys matched as encoding/json matches them, case folded; the
// last of a repeated member wins). It is fed the message in one or more
// pieces, so that a message read in the chunks it arrived in is never
// joined to be read. The proxy reads every message it forwards this way:
// encoding/json's reflection and its two passes over a message took most
// of what the proxy added to a round trip.
type headScan struct {
	// stack holds the open containers, '{' or '['.
	stack []byte
	state scanState
	// lit is what is left to read of a literal (true, false, null);
	// hexLeft the hex digits left of a \u escape.
	lit     string
	hexLeft int
	// inKey: the string being read is an object's key.
	inKey bool
	// object: the message is an object, whose members are the head's.
	object bool
	// member is the top-level member whose key was just read or whose
	// value is being read.
	member headMember
	// spanning: the bytes of a top-level key, or of an id or method
	// value, are being kept: span holds those of earlier pieces, and
	// spanFrom is where they start in the current one.
	spanning bool
	span     []byte
	spanFrom int
	h        head
}

type scanState uint8

const (
	stBeginValue     scanState = iota // a value
	stBeginElemOrEnd                  // after '[': a value or ']'
	stBeginKeyOrEnd                   // after '{': a key or '}'
	stBeginKey                        // after ',' in an object: a key
	stColon                           // after a key: ':'
	stEndValue                        // after a value: ',' or its container's end
	stString                          // in a string
	stStringEsc                       // after a backslash
	stStringHex                       // in a \u escape's digits
	stLiteral                         // in true, false or null
	stNeg                             // after '-'
	stZero                            // after a leading 0
	stInt                             // in an integer's digits
	stDot                             // after the decimal point
	stFrac                            // in the fraction's digits
	stExp                             // after e or E
	stExpSign                         // after the exponent's sign
	stExpDigits                       // in the exponent's digits
	stDone                            // after the top-level value: spaces only
	stError
)

// headMember is which of the head's members a top-level key names.
type headMember uint8

const (
	memberOther headMember = iota
	memberMethod
	memberID
	memberResult
	memberError
)

// maxNesting is encoding/json's limit on nesting, which json.Valid
// enforces.
const maxNesting = 10000

// maxKeySpan is the longest raw key kept to match a member's name (six
// runes, each a \u escape, with room to spare).
const maxKeySpan = 64

// plainInString marks the bytes that stand for themselves in a string:
// not a quote, a backslash or a control character.
var plainInString = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// skipPlain is where the plain bytes of a string starting at p[i] end:
// eight at a time while none of eight is a quote, a backslash or a
// control character, then one at a time.
func skipPlain(p []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(p); i += 8 {
		x := binary.LittleEndian.Uint64(p[i:])
		q, b := x^(ones*'"'), x^(ones*'\\')
		if ((x-ones*0x20)&^x|(q-ones)&^q|(b-ones)&^b)&highs != 0 {
			break
		}
	}
	for i < len(p) && plainInString[p[i]] {
		i++
	}
	return i
}

// readHead reads one message whole (see headScan).
func readHead(data []byte) (head, bool) {
	var s headScan
	s.feed(data)
	return s.end()
}

// feed reads the next piece of the message.
func (s *headScan) feed(p []byte) {
	s.spanFrom = 0
	for i := 0; i < len(p) && s.state != stError; {
		if s.state == stString {
			i = skipPlain(p, i)
			if i == len(p) {
				break
			}
		}
		if s.step(p, i) {
			i++
		}
	}
	if s.spanning {
		s.keep(p[s.spanFrom:])
	}
}

// end is the head read, and whether the message was JSON.
func (s *headScan) end() (head, bool) {
	switch s.state {
	case stZero, stInt, stFrac, stExpDigits: // a number ends at the end
		if len(s.stack) == 0 {
			return s.h, true
		}
	case stDone:
		return s.h, true
	}
	return head{}, false
}

// step reads p[i], and reports whether it was used up: a number's end is
// seen at the byte after it, which is read again.
func (s *headScan) step(p []byte, i int) bool {
	c := p[i]
	switch s.state {
	case stBeginValue, stBeginElemOrEnd:
		s.beginValue(p, i)
	case stBeginKeyOrEnd, stBeginKey:
		s.beginKey(p, i)
	case stColon:
		switch {
		case c == ':':
			s.state = stBeginValue
		case !isSpace(c):
			s.state = stError
		}
	case stEndValue:
		s.endValue(p, i)
	case stString, stStringEsc, stStringHex:
		s.inString(p, i)
	case stLiteral:
		if c != s.lit[0] {
			s.state = stError
			return true
		}
		if s.lit = s.lit[1:]; s.lit == "" {
			s.ended(p, i+1)
		}
	case stDone:
		if !isSpace(c) {
			s.state = stError
		}
	default:
		return s.number(p, i)
	}
	return true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// beginValue reads the first byte of a value (or the end of an empty
// array).
func (s *headScan) beginValue(p []byte, i int) {
	c := p[i]
	if isSpace(c) {
		return
	}
	if s.state == stBeginElemOrEnd && c == ']' {
		s.pop(p, i)
		return
	}
	if s.object && len(s.stack) == 1 {
		s.memberValue(i)
	}
	switch {
	case c == '{':
		s.object = s.object || len(s.stack) == 0
		s.push('{', stBeginKeyOrEnd)
	case c == '[':
		s.push('[', stBeginElemOrEnd)
	case c == '"':
		s.state, s.inKey = stString, false
	case c == '-':
		s.state = stNeg
	case c == '0':
		s.state = stZero
	case '1' <= c && c <= '9':
		s.state = stInt
	case c == 't':
		s.state, s.lit = stLiteral, "rue"
	case c == 'f':
		s.state, s.lit = stLiteral, "alse"
	case c == 'n':
		s.state, s.lit = stLiteral, "ull"
	default:
		s.state = stError
	}
}

// memberValue starts a top-level member's value at p[i].
func (s *headScan) memberValue(i int) {
	switch s.member {
	case memberResult:
		s.h.Result = true
	case memberError:
		s.h.Error = true
	case memberID, memberMethod:
		s.startSpan(i)
	}
}

// beginKey reads the first byte of a key (or the end of an empty
// object).
func (s *headScan) beginKey(p []byte, i int) {
	c := p[i]
	switch {
	case isSpace(c):
	case c == '}' && s.state == stBeginKeyOrEnd:
		s.pop(p, i)
	case c == '"':
		s.state, s.inKey = stString, true
		if s.object && len(s.stack) == 1 {
			s.startSpan(i)
		}
	default:
		s.state = stError
	}
}

// endValue reads what follows a value in a container.
func (s *headScan) endValue(p []byte, i int) {
	c := p[i]
	top := s.stack[len(s.stack)-1]
	switch {
	case isSpace(c):
	case c == ',' && top == '{':
		s.state = stBeginKey
	case c == ',':
		s.state = stBeginValue
	case c == '}' && top == '{', c == ']' && top == '[':
		s.pop(p, i)
	default:
		s.state = stError
	}
}

// inString reads a byte of a string that is not plain: its end, an
// escape, a control character.
func (s *headScan) inString(p []byte, i int) {
	c := p[i]
	switch s.state {
	case stStringEsc:
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			s.state = stString
		case 'u':
			s.state, s.hexLeft = stStringHex, 4
		default:
			s.state = stError
		}
	case stStringHex:
		if !isHex(c) {
			s.state = stError
			return
		}
		if s.hexLeft--; s.hexLeft == 0 {
			s.state = stString
		}
	default:
		switch {
		case c == '\\':
			s.state = stStringEsc
		case c < 0x20:
			s.state = stError
		case c == '"' && s.inKey:
			if s.object && len(s.stack) == 1 {
				s.member = memberNamed(s.endSpan(p, i+1))
			}
			s.state, s.inKey = stColon, false
		case c == '"':
			s.ended(p, i+1)
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// number reads a byte of a number, and reports whether it was part of
// it.
func (s *headScan) number(p []byte, i int) bool {
	c := p[i]
	digit := '0' <= c && c <= '9'
	next := stError
	switch s.state {
	case stNeg:
		switch {
		case c == '0':
			next = stZero
		case digit:
			next = stInt
		}
	case stInt, stZero:
		switch {
		case digit && s.state == stInt:
			next = stInt
		case c == '.':
			next = stDot
		case c == 'e' || c == 'E':
			next = stExp
		default:
			s.ended(p, i)
			return false
		}
	case stDot, stFrac:
		switch {
		case digit:
			next = stFrac
		case s.state == stFrac && (c == 'e' || c == 'E'):
			next = stExp
		case s.state == stFrac:
			s.ended(p, i)
			return false
		}
	case stExp, stExpSign:
		if digit {
			next = stExpDigits
		} else if s.state == stExp && (c == '+' || c == '-') {
			next = stExpSign
		}
	case stExpDigits:
		if !digit {
			s.ended(p, i)
			return false
		}
		next = stExpDigits
	}
	s.state = next
	return true
}

func (s *headScan) push(c byte, next scanState) {
	if len(s.stack) >= maxNesting {
		s.state = stError
		return
	}
	s.stack = append(s.stack, c)
	s.state = next
}

// pop closes the container ending at p[i].
func (s *headScan) pop(p []byte, i int) {
	s.stack = s.stack[:len(s.stack)-1]
	s.ended(p, i+1)
}

// ended is the end of a value, at p[end]: a top-level member's value is
// read into the head.
func (s *headScan) ended(p []byte, end int) {
	if len(s.stack) == 0 {
		s.state = stDone
		return
	}
	s.state = stEndValue
	if !s.object || len(s.stack) != 1 || !s.spanning {
		return
	}
	v := s.endSpan(p, end)
	switch s.member {
	case memberID:
		s.h.ID = json.RawMessage(append([]byte(nil), v...))
	case memberMethod:
		s.h.Method = methodOf(v, s.h.Method)
	}
	s.member = memberOther
}

// methodOf is a method member's value read into a string as
// json.Unmarshal does: a value that is not a string leaves was as it is.
func methodOf(v []byte, was string) string {
	if len(v) < 2 || v[0] != '"' {
		return was
	}
	inner := v[1 : len(v)-1]
	for _, c := range inner {
		if c == '\\' || c >= utf8.RuneSelf {
			_ = json.Unmarshal(v, &was) // escapes, and invalid UTF-8 made U+FFFD
			return was
		}
	}
	return string(inner)
}

func (s *headScan) startSpan(i int) {
	s.spanning, s.span, s.spanFrom = true, s.span[:0], i
}

// keep keeps the span's bytes of a piece read; a key's no further than
// needed to tell it is no member's.
func (s *headScan) keep(b []byte) {
	if s.inKey {
		b = b[:min(len(b), max(0, maxKeySpan+1-len(s.span)))]
	}
	s.span = append(s.span, b...)
}

// endSpan is the span, ending at p[end].
func (s *headScan) endSpan(p []byte, end int) []byte {
	s.spanning = false
	if len(s.span) == 0 {
		return p[s.spanFrom:end] // all in this piece: not copied
	}
	s.keep(p[s.spanFrom:end])
	return s.span
}

// memberNamed is the member a top-level key (raw, quotes included)
// names: encoding/json matches a key to a field's name exactly or else
// case folded.
func memberNamed(key []byte) headMember {
	if len(key) > maxKeySpan {
		return memberOther
	}
	name := key[1 : len(key)-1]
	if m, ok := asciiMember(name); ok {
		return m
	}
	for _, c := range name {
		if c == '\\' || c >= utf8.RuneSelf {
			var k string
			if json.Unmarshal(key, &k) != nil {
				return memberOther
			}
			name = []byte(k)
			break
		}
	}
	for _, m := range memberNames {
		if foldEqual(name, m.name) {
			return m.m
		}
	}
	return memberOther
}

// memberNames are the head's members' names, as json.Unmarshal matches
// them.
var memberNames = [...]struct {
	name string
	m    headMember
}{{"method", memberMethod}, {"id", memberID}, {"result", memberResult}, {"error", memberError}}

// asciiMember is the member a key of plain ASCII (no escapes) names, where
// folding is ASCII's; ok is false for any other key.
func asciiMember(name []byte) (m headMember, ok bool) {
	for _, c := range name {
		if c == '\\' || c >= utf8.RuneSelf {
			return memberOther, false
		}
	}
	for _, n := range memberNames {
		if len(name) == len(n.name) && asciiFold(name, n.name) {
			return n.m, true
		}
	}
	return memberOther, true
}

// asciiFold reports whether ASCII name equals lower-case want, letters'
// case aside.
func asciiFold(name []byte, want string) bool {
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != want[i] {
			return false
		}
	}
	return true
}

// foldEqual reports whether key equals name (lower-case ASCII) under
// simple case folding, each rune taken as the smallest of its fold
// orbit, as encoding/json folds names.
func foldEqual(key []byte, name string) bool {
	j := 0
	for len(key) > 0 {
		r, n := utf8.DecodeRune(key)
		key = key[n:]
		if j == len(name) || foldRune(r) != foldRune(rune(name[j])) {
			return false
		}
		j++
	}
	return j == len(name)
}

// foldRune is the smallest rune of r's simple case-fold orbit.
func foldRune(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}
