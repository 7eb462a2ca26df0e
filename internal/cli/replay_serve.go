package cli

import (
	"context"
	"fmt"
)

// runServe plays the server of the recording (replay --serve), on stdio
// or on streamable HTTP at o.httpAddr: not built yet.
func (o *replayOptions) runServe(context.Context, streams) error {
	where := "stdio"
	if o.httpAddr != "" {
		where = o.httpAddr
	}
	return fmt.Errorf("replay --serve (%s) is not built yet", where)
}
