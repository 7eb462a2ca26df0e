package author

import (
	"encoding/json"
	"slices"

	"github.com/mcpeek/mcpeek/internal/secret"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// Secrets is step with the values that hold a secret marked, to be
// written as {{env.X}} templates (suite.BuildTest): the arguments and the
// accepted form answers the one secret rule holds secret (secret.Paths:
// by the tool's input schema, nil for none known, and the form's
// requested schema; by their names; by a value known knows), and known
// itself, which the expected error message leaves out. Every writer of a
// test from a session or a recording passes its step through it.
func Secrets(step suite.SessionStep, schema any, known secret.Known) suite.SessionStep {
	step.Known = known
	step.SecretArgs = secret.Paths(schema, step.Args, known)
	step.Questions = slices.Clone(step.Questions)
	for i, q := range step.Questions {
		if q.Kind != mcpclient.KindElicitation || q.Action != "accept" {
			continue
		}
		var p struct {
			Schema any `json:"requestedSchema"`
		}
		var a struct {
			Content any `json:"content"`
		}
		_ = json.Unmarshal(q.Params, &p)
		_ = json.Unmarshal(q.Answer, &a)
		step.Questions[i].Secret = secret.Paths(p.Schema, a.Content, known)
	}
	return step
}
