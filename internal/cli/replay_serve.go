package cli

import (
	"context"
	"errors"
)

// runServe plays the server of the recording (replay --serve): not built
// yet.
func (o *replayOptions) runServe(context.Context, streams) error {
	return errors.New("replay --serve is not built yet")
}
