package cli

import (
	"context"
	"errors"

	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// errReplayDiffers is a replay in which a response differed from the
// recorded one: the report said where.
var errReplayDiffers = record.ErrDiffers

// replayOptions are `mcpeek replay`'s.
type replayOptions struct {
	conn        connFlags
	allowWrites bool
	redact      listFlag

	// serve plays the server from the recording instead (replay --serve),
	// on stdio or, with httpAddr, streamable HTTP: runServe.
	serve    bool
	httpAddr string

	// Set by parse.
	file       string
	header     record.Header
	session    record.Session
	redactions []*suite.Redaction
}

func newReplayOptions(fs *flagSet) options {
	o := &replayOptions{}
	o.conn.register(fs, true)
	fs.Lookup("protocol").Usage = "the recording's revision (the default); another is refused"
	fs.BoolVar(&o.allowWrites, "allow-writes", false, "also call the tools not annotated read-only (without it the replay stops before the first)")
	fs.Var(&o.redact, "redact", "compare the responses without what this `JSONPATH` selects, as a suite's redact: (repeatable)")
	defineServe(fs, &o.serve, &o.httpAddr)
	return o
}

func (o *replayOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) == 0 || dashBefore(args, rest) {
		return usagef("replay: name the recording (a file --record wrote)")
	}
	o.file = rest[0]
	if rest, err = fs.parse(rest[1:]); err != nil {
		return err
	}
	header, entries, err := record.ReadFile(o.file)
	if err != nil {
		return usagef("replay: %v", err)
	}
	o.header, o.session = header, record.Pair(entries)
	if o.redactions, err = suite.ParseRedactions(o.redact); err != nil {
		return usagef("--redact: %v", err)
	}
	if o.serve || o.httpAddr != "" {
		return checkServe(o.serve, o.httpAddr, rest)
	}
	if o.conn.Protocol == "auto" {
		o.conn.Protocol = o.header.Protocol
	}
	if err := mcpclient.CheckProtocol(o.conn.Protocol); err != nil {
		return usagef("--protocol: %v", err)
	}
	if want := revisionOf(o.conn.Protocol); want != o.header.Protocol {
		return usagef("replay: %s was recorded in %s, and --protocol asks for %s: a replay speaks the recording's revision", o.file, o.header.Protocol, want)
	}
	if err := o.conn.parseTarget(rest); err != nil {
		return err
	}
	o.conn.Roots = append(o.conn.Roots, record.RecordedRoots(o.session)...)
	return nil
}

// revisionOf is the revision a --protocol value names.
func revisionOf(p string) string {
	switch p {
	case "legacy":
		return "2025-11-25"
	case "modern":
		return "2026-07-28"
	}
	return p
}

func (o *replayOptions) run(ctx context.Context, s streams) error {
	if o.serve {
		return o.runServe(ctx, s)
	}
	asker := record.NewReplayAsker(o.session)
	return o.conn.headless(ctx, s, asker, nil, func(ctx context.Context, conn *mcpclient.Conn) error {
		r := &record.Replay{File: o.file, Session: o.session, AllowWrites: o.allowWrites, Redactions: o.redactions, Asker: asker, Out: s.out}
		err := r.Run(ctx, conn)
		if errors.As(err, new(record.NotReadOnlyError)) {
			return usagef("%v", err)
		}
		return err
	})
}
