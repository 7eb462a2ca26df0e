package formschema

import (
	"encoding/json"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkValidate validates one form answer against a schema with every
// kind of field, the schema parsed (and its validator compiled) once, as a
// server that asks with the same schema again gets it: a valid answer, and
// one with a problem in every field. The target is under 100 µs per answer.
// Besides ns/op it reports cpu-ns/op, the process's CPU time per answer,
// which a machine busy with other work inflates far less than wall time.
//
//	go test -run '^$' -bench Validate -benchmem ./formschema
func BenchmarkValidate(b *testing.B) {
	s, err := Parse(json.RawMessage(allKinds))
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		content map[string]any
		errs    int
	}{
		{"valid", map[string]any{
			"name": "Ada", "code": "abc", "email": "ada@example.com", "site": "https://example.com/x",
			"birthday": "1815-12-10", "meeting_at": "2025-11-25T10:00:00Z", "score": 7.5, "age": 36,
			"agree": true, "color": "red", "size": "s", "plan": "p", "tags": []any{"a", "c"}, "langs": []any{"go", "rs"},
		}, 0},
		{"every_field_wrong", map[string]any{
			"name": "a-much-too-long-name", "code": "ABC", "email": "ada@", "site": "example.com", "birthday": "1815-13-10",
			"meeting_at": "2025-11-25", "score": 99, "age": 2.5, "agree": "yes", "color": "blue", "size": "m",
			"plan": "x", "tags": []any{"a", "b", "c"}, "langs": []any{"py"},
		}, 14},
	} {
		b.Run(tc.name, func(b *testing.B) {
			if got := len(s.Validate(tc.content)); got != tc.errs {
				b.Fatalf("%d errors, want %d", got, tc.errs)
			}
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				s.Validate(tc.content)
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkParseCached is what asking again with the same schema costs:
// the parsed schema and its compiled validator come from their caches.
func BenchmarkParseCached(b *testing.B) {
	raw := json.RawMessage(allKinds)
	if _, err := Parse(raw); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompile compiles a schema the validator has not seen (the
// cache is bypassed), which the first question with it pays.
func BenchmarkCompile(b *testing.B) {
	doc, err := Instance([]byte(allKinds))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := compile(doc); err != nil {
			b.Fatal(err)
		}
	}
}
