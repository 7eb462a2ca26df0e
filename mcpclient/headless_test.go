//lint:file-ignore SA1019 sampling is deprecated from 2026-07-28 on, but servers still use it and mcpeek answers it (docs/architecture.md, "Sampling, roots and notifications").

package mcpclient

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestParseAnswers(t *testing.T) {
	for _, tc := range []struct {
		in      string
		wantErr string
	}{
		{`[]`, ""},
		{`[{"match":{},"action":"cancel"}]`, ""},
		{`[{"match":{"message":"x","resourceUri":"ui://a/b"},"action":"accept","content":{"a":1}}]`, ""},
		{`{}`, "not a JSON array"},
		{`[{"action":"accept"`, "not a JSON array"},
		{`[{"match":{},"action":"maybe"}]`, `entry 1: unknown action "maybe"`},
		{`[{"match":{}}]`, "entry 1: action is missing"},
		{`[{"match":{},"action":"decline","content":{"a":1}}]`, "content is only allowed with action accept"},
		{`[{"match":{"msg":"x"},"action":"cancel"}]`, `unknown field "msg"`},
		{`[] []`, "unexpected data"},
	} {
		_, err := ParseAnswers([]byte(tc.in))
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("ParseAnswers(%s) = %v, want %q", tc.in, err, tc.wantErr)
		}
	}
}

func TestHeadlessAskerUsesEachEntryOnce(t *testing.T) {
	schema, err := formschema.Parse(choiceSchema)
	if err != nil {
		t.Fatal(err)
	}
	answers, _ := ParseAnswers([]byte(`[
		{"match":{"resourceUri":"ui://other/app"},"action":"decline"},
		{"match":{"message":"Choose"},"action":"accept","content":{"choice":"option-a"}},
		{"match":{},"action":"accept","content":{"choice":"option-b"}}
	]`))
	var stderr bytes.Buffer
	h := &HeadlessAsker{Answers: answers, Policy: PolicyDecline, Stderr: &stderr}
	req := &NativeRequest{Params: &mcp.ElicitParams{Message: "Choose one"}, Schema: schema}
	var got []string
	for range 3 {
		res, err := h.Ask(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Action+"/"+stringOf(res.Content["choice"]))
	}
	want := []string{"accept/option-a", "accept/option-b", "decline/"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("answers = %v, want %v", got, want)
	}
	if h.Rejected() != 0 || stderr.Len() != 0 {
		t.Errorf("rejected %d, stderr %q", h.Rejected(), stderr.String())
	}
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}

// TestStrictHeadlessAsker: a strict asker fails a question no entry
// matches, with its message and schema, instead of answering it by
// policy; Unused names the entries never used.
func TestStrictHeadlessAsker(t *testing.T) {
	schema, err := formschema.Parse(choiceSchema)
	if err != nil {
		t.Fatal(err)
	}
	answers, _ := ParseAnswers([]byte(`[
		{"match":{"message":"Choose"},"action":"decline"},
		{"match":{"message":"never"},"action":"cancel"}
	]`))
	h := &HeadlessAsker{Answers: answers, Policy: PolicyAcceptDefaults, Strict: true}
	req := &NativeRequest{Params: &mcp.ElicitParams{Message: "Choose one"}, Schema: schema, RawParams: []byte(`{"message":"Choose one","requestedSchema":{"type":"object"}}`)}
	if res, err := h.Ask(context.Background(), req); err != nil || res.Action != "decline" {
		t.Fatalf("the matching entry: %v %v", res, err)
	}
	_, err = h.Ask(context.Background(), req)
	var ue *UnexpectedError
	if !errors.As(err, &ue) || err.Error() != `unexpected elicitation: "Choose one" with schema {"type":"object"}` {
		t.Fatalf("an unmatched question: %v", err)
	}
	if unused := h.Unused(); len(unused) != 1 || unused[0] != 1 {
		t.Errorf("unused %v, want [1]", unused)
	}
	_, err = h.Sample(context.Background(), &SampleRequest{Key: "s-1", Params: &mcp.CreateMessageWithToolsParams{}})
	if !errors.As(err, &ue) || ue.Kind != KindSampling {
		t.Errorf("an unmatched sampling request: %v", err)
	}
}
