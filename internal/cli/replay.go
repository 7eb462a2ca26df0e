package cli

import (
	"context"
	"strings"
)

// replayOptions are `mcpeek replay`'s.
type replayOptions struct {
	file   string
	server []string
	serve  replayServe
}

func newReplayOptions(fs *flagSet) options {
	o := &replayOptions{}
	o.serve.define(fs)
	return o
}

func (o *replayOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("replay: name the recording to replay")
	}
	o.file = rest[0]
	if rest, err = fs.parse(rest[1:]); err != nil {
		return err
	}
	if len(rest) > 0 && rest[0] == "--" {
		rest = rest[1:]
	}
	o.server = rest
	if err := o.serve.check(o.server); err != nil {
		return err
	}
	if !o.serve.on {
		return usagef("replay: give --serve to play the recording's server (%s)", strings.Join(o.server, " "))
	}
	return nil
}

func (o *replayOptions) run(ctx context.Context, s streams) error {
	return o.serve.run(ctx, s, o.file)
}
