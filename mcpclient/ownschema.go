package mcpclient

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// go-sdk checks a form elicitation's requested schema before it calls the
// handler, and afterwards checks the answer (without formats) and adds the
// schema's defaults to it. Both get in mcpeek's way: the check refuses
// schemas mcpeek answers well (FastMCP's multi-select shorthand,
// {"type":"array","items":{"enum":[…]}}, with a message about titled
// enums), and the defaults put back what mcpeek decided not to send (an
// empty or invalid default, an answers-file entry's "defaults": false).
// mcpeek parses and checks the schema itself (formschema, formats
// asserted), so ownSchema hands go-sdk the request without its schema and
// the router takes the whole one back from the context
// (docs/architecture.md, "The requested schema").
//
// This reaches legacy elicitation/create requests. go-sdk answers the
// input requests of a 2026-07-28 result inside its own multi round-trip
// middleware, which no middleware of mcpeek's can come between: there the
// wire tap keeps the schema from go-sdk (ownschema_modern.go).

// wholeParams carries an elicitation's params as received, beside the
// schemaless copy go-sdk is given.
type wholeParams struct {
	bare, whole *mcp.ElicitParams
}

type wholeParamsKey struct{}

// ownSchema is a receiving middleware that keeps go-sdk away from the
// requested schema of a form elicitation.
func ownSchema(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		er, ok := req.(*mcp.ElicitRequest)
		if method != "elicitation/create" || !ok || er.Params == nil || er.Params.RequestedSchema == nil ||
			(er.Params.Mode != "" && er.Params.Mode != "form") {
			return next(ctx, method, req)
		}
		bare := *er.Params
		bare.RequestedSchema = nil
		ctx = context.WithValue(ctx, wholeParamsKey{}, wholeParams{bare: &bare, whole: er.Params})
		return next(ctx, method, &mcp.ElicitRequest{Session: er.Session, Params: &bare})
	}
}

// receivedParams is the elicitation's params as received: those ownSchema
// kept from go-sdk when p is the copy it made, else p.
func receivedParams(ctx context.Context, p *mcp.ElicitParams) *mcp.ElicitParams {
	if w, ok := ctx.Value(wholeParamsKey{}).(wholeParams); ok && w.bare == p {
		return w.whole
	}
	return p
}
