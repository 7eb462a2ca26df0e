package nativeform

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/formschema"
)

func numberField(t *testing.T, def string) *formschema.Field {
	t.Helper()
	s, err := formschema.Parse([]byte(`{"type":"object","properties":{"n":` + def + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	return &s.Fields[0]
}

func TestSliderScale(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		def         string
		slider      bool
		first, step float64
		steps       int
	}{
		{`{"type":"integer","minimum":1,"maximum":100}`, true, 1, 1, 99},
		{`{"type":"integer","minimum":0,"maximum":100}`, true, 0, 1, 100},
		{`{"type":"integer","minimum":0,"maximum":101}`, false, 0, 0, 0},
		{`{"type":"integer","minimum":0.5,"maximum":3.5}`, true, 1, 1, 2},
		{`{"type":"integer","minimum":0,"maximum":100,"multipleOf":5}`, true, 0, 5, 20},
		{`{"type":"integer","minimum":1,"maximum":10,"multipleOf":0.5}`, true, 1, 1, 9},
		{`{"type":"number","minimum":0,"maximum":1000}`, true, 0, 50, 20},
		{`{"type":"number","minimum":0,"maximum":1,"multipleOf":0.1}`, true, 0, 0.1, 10},
		{`{"type":"number","minimum":0.05,"maximum":1,"multipleOf":0.1}`, true, 0.1, 0.1, 9},
		{`{"type":"number","minimum":0,"maximum":1,"multipleOf":0.001}`, false, 0, 0, 0},
		{`{"type":"number","minimum":0,"maximum":0.05,"multipleOf":0.1}`, false, 0, 0, 0},
		{`{"type":"number","minimum":-1e308,"maximum":1e308}`, false, 0, 0, 0},
		{`{"type":"number","minimum":5,"maximum":5}`, false, 0, 0, 0},
		{`{"type":"number","minimum":0}`, false, 0, 0, 0},
		{`{"type":"number"}`, false, 0, 0, 0},
	} {
		s, ok := newScale(numberField(t, tc.def))
		if ok != tc.slider {
			t.Errorf("%s: slider = %v, want %v", tc.def, ok, tc.slider)
			continue
		}
		if ok && (s.first != tc.first || s.step != tc.step || s.steps != tc.steps) {
			t.Errorf("%s: first %v, step %v, %d steps; want %v, %v, %d", tc.def, s.first, s.step, s.steps, tc.first, tc.step, tc.steps)
		}
	}
}

func TestSliderScaleSteps(t *testing.T) {
	t.Parallel()
	s, _ := newScale(numberField(t, `{"type":"number","minimum":0,"maximum":1,"multipleOf":0.1}`))
	x := 0.0
	var got []string
	for range 12 {
		x = s.next(x)
		got = append(got, s.format(x))
	}
	if want := "0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1 1 1"; strings.Join(got, " ") != want {
		t.Errorf("next from 0: %s, want %s (exact decimals, stopping at the maximum)", strings.Join(got, " "), want)
	}
	for _, tc := range []struct{ at, next, prev float64 }{
		{0.35, 0.4, 0.3}, {-4, 0, 0}, {7, 1, 1}, {0.3, 0.4, 0.2},
	} {
		if n, p := s.next(tc.at), s.prev(tc.at); n != tc.next || p != tc.prev {
			t.Errorf("from %v: next %v, prev %v; want %v, %v", tc.at, n, p, tc.next, tc.prev)
		}
	}
	i, _ := newScale(numberField(t, `{"type":"integer","minimum":1,"maximum":10}`))
	if got := i.format(i.next(i.value(0))); got != "2" {
		t.Errorf("integer step from the minimum = %s, want 2", got)
	}
}

func TestAddMonths(t *testing.T) {
	t.Parallel()
	d := func(s string) time.Time { t, _ := formschema.ParseDate(s); return t }
	for _, tc := range []struct {
		from string
		n    int
		want string
	}{
		{"2026-01-31", 1, "2026-02-28"}, {"2028-01-31", 1, "2028-02-29"}, {"2026-03-31", -1, "2026-02-28"},
		{"2026-12-15", 1, "2027-01-15"}, {"2026-01-15", -1, "2025-12-15"}, {"2026-05-31", 1, "2026-06-30"},
	} {
		if got := addMonths(d(tc.from), tc.n).Format(formschema.DateLayout); got != tc.want {
			t.Errorf("%s %+d month = %s, want %s", tc.from, tc.n, got, tc.want)
		}
	}
}

// The calendar's grid: weeks from Monday, the cursor's day in brackets,
// every day of the month once.
func TestCalendarGrid(t *testing.T) {
	t.Parallel()
	s, err := formschema.Parse([]byte(`{"type":"object","properties":{"d":{"type":"string","format":"date","default":"2026-02-28","formatMinimum":"2026-02-10"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	f := New(Request{Schema: s}, Options{Now: func() time.Time { return time.Date(2026, 2, 3, 12, 0, 0, 0, time.UTC) }})
	d := f.fields[0].(*dateField)
	got := d.calendar()
	want := strings.Join([]string{
		"       February 2026        ",
		"  M   T   W   T   F   S   S ",
		"                          1 ",
		"  2   3   4   5   6   7   8 ",
		"  9  10  11  12  13  14  15 ",
		" 16  17  18  19  20  21  22 ",
		" 23  24  25  26  27 [28]",
	}, "\n")
	if got != want {
		t.Errorf("calendar:\n%s\nwant:\n%s", got, want)
	}
	for day, inside := range map[string]bool{"2026-02-09": false, "2026-02-10": true, "2026-12-31": true} {
		t0, _ := formschema.ParseDate(day)
		if d.inside(t0) != inside {
			t.Errorf("%s inside the bounds = %v, want %v", day, !inside, inside)
		}
	}
}
