// test init tries each tool it may run once, to learn what it asks.

package author

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Learner answers the questions a tool asks while test init tries it: a
// form with values its requested schema accepts (SampleArgs), a page to
// open declined (nobody is there to open it).
type Learner struct{}

// Ask implements mcpclient.NativeAsker.
func (Learner) Ask(ctx context.Context, req *mcpclient.NativeRequest) (*mcp.ElicitResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if req.Schema == nil {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	var p struct {
		Schema json.RawMessage `json:"requestedSchema"`
	}
	_ = json.Unmarshal(req.RawParams, &p)
	content := SampleArgs(p.Schema)
	if req.Schema.Check(content) != nil {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

// TryOn is a StarterInput.Try that calls each tool on conn (answered by
// a Learner), each call given at most timeout.
func TryOn(ctx context.Context, conn *mcpclient.Conn, timeout time.Duration) func(string, map[string]any) Tried {
	return func(tool string, args map[string]any) Tried {
		data, err := json.Marshal(args)
		if err != nil {
			return Tried{Failed: "could not be called"}
		}
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		before, start := len(conn.Records()), time.Now()
		res, err := conn.Call(ctx, tool, data)
		qs, rounds := suite.StepQuestions(conn, before, start)
		r := Tried{Questions: qs, Rounds: rounds, Era: conn.ProtocolVersion()}
		switch {
		case ctx.Err() != nil:
			r.Failed = "did not answer in " + timeout.String()
		case err != nil:
			r.Failed = "failed"
		case res.IsError:
			r.Failed = "returned an error (isError: true)"
		default:
			if data, err := json.Marshal(res); err == nil {
				_ = json.Unmarshal(data, &r.Result)
			}
		}
		return r
	}
}
