package surface

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// lineIndex maps each JSON pointer of a document to the line its value (for
// an object's member: its key) starts on, from 1.
type lineIndex struct {
	lines map[string]int
	// items is each list's identifying keys in the file's order, so that
	// a finding on a tool finds the tool's place in this file.
	items map[string][]string
}

// indexLines indexes a surface file; nil when it is not JSON.
func indexLines(data []byte) *lineIndex {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	lineAt := func(off int64) int {
		i := int(off)
		for i < len(data) && strings.IndexByte(" \t\r\n,:", data[i]) >= 0 {
			i++
		}
		return sort.Search(len(starts), func(l int) bool { return starts[l] > i })
	}
	idx := &lineIndex{lines: map[string]int{}, items: map[string][]string{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func(ptr string, record bool) error
	walk = func(ptr string, record bool) error {
		if record {
			idx.lines[ptr] = lineAt(dec.InputOffset())
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				off := dec.InputOffset()
				key, err := dec.Token()
				if err != nil {
					return err
				}
				p := ptr + "/" + escapePointer(key.(string))
				idx.lines[p] = lineAt(off)
				if err := walk(p, false); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(ptr+"/"+strconv.Itoa(i), true); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		}
		return err
	}
	if walk("", true) != nil {
		return nil
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(data, &doc) == nil {
		for _, l := range Lists {
			var items []map[string]any
			_ = json.Unmarshal(doc[l.Name], &items)
			for _, it := range items {
				idx.items[l.Name] = append(idx.items[l.Name], str(it[l.Key]))
			}
		}
	}
	return idx
}

// line is the line of the finding in the file, and whether it is the
// finding's own place rather than the nearest place around it that the
// file has (where a tool was added, say).
func (idx *lineIndex) line(f *Finding) (int, bool) {
	ptr := f.Pointer
	if f.list != "" {
		_, name := f.Kind()
		i := -1
		for j, k := range idx.items[f.list] {
			if k == name {
				i = j
				break
			}
		}
		if i < 0 {
			return idx.lines["/"+f.list], false
		}
		ptr = "/" + f.list + "/" + strconv.Itoa(i) + f.Pointer
		if f.Pointer == "" {
			// The item itself: the line that names it.
			for _, l := range Lists {
				if l.Name == f.list {
					ptr += "/" + l.Key
				}
			}
		}
	}
	for exact := true; ; exact = false {
		if l, ok := idx.lines[ptr]; ok {
			return l, exact
		}
		cut := strings.LastIndexByte(ptr, '/')
		if cut < 0 {
			return 1, false
		}
		ptr = ptr[:cut]
	}
}
