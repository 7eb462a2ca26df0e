package surface

import (
	"io"
	"os"
	"testing"
	"time"
)

// FuzzDiff: whatever two surface files hold, reading, comparing and
// reporting them does not panic, and a surface compared with itself
// differs in nothing.
func FuzzDiff(f *testing.F) {
	for _, p := range []string{"../../testdata/surface/v1.json", "../../testdata/surface/v2.json", "../../testdata/fixture.surface.json"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, data)
	}
	for _, u := range realUpgrades {
		old, errO := os.ReadFile("../../testdata/surface/real/" + u.old + ".json")
		new, errN := os.ReadFile("../../testdata/surface/real/" + u.new + ".json")
		if errO != nil || errN != nil {
			f.Fatal(errO, errN)
		}
		f.Add(old, new)
	}
	f.Add([]byte(`{"mcpeekSurface":1,"tools":[{"name":"t","inputSchema":{"properties":[],"required":{},"type":7,"enum":3}}]}`),
		[]byte(`{"mcpeekSurface":1,"tools":[{"name":"t","inputSchema":{"properties":{"a":true},"required":[1],"type":["x",2],"minimum":"9"}}]}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		old, errA := Parse(a)
		new, errB := Parse(b)
		if errA != nil || errB != nil {
			return
		}
		if same := Diff(old, old, nil, time.Now()); len(same) != 0 {
			t.Fatalf("a surface differs from itself: %+v", same)
		}
		r := &Report{Old: Side{Label: "a", File: "a", Data: a}, New: Side{Label: "b", File: "b", Data: b}, FailOn: ERR,
			Findings: Diff(old, new, nil, time.Now())}
		for _, format := range Formats {
			if err := r.Write(io.Discard, format); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := new.Marshal(); err != nil {
			t.Fatal(err)
		}
	})
}
