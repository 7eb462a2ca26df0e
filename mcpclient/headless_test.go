package mcpclient

import (
	"bytes"
	"context"
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
