package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// recording is a session recorded to a file (--record FILE, or the
// inspector's ctrl+r): see internal/record for the format.
type recording struct {
	mu   sync.Mutex
	path string
	f    *os.File // nil when nothing is recorded
	// w is --record's writer, which the endpoints' wire logs write to
	// (untaps ends that); nil for a recording ctrl+r started, which end
	// ends.
	w      *record.Writer
	untaps []func()
	end    func() error
}

// registerRecord defines --record on fs (the inspector, call and test).
func (cf *connFlags) registerRecord(fs *flagSet) {
	fs.StringVar(&cf.record, "record", "", "record the session to `FILE` (JSON lines, the wire log after a header) for mcpeek replay and mcpeek record --to-suite; needs --protocol legacy or modern")
}

// checkRecord refuses --record with --protocol auto: a recording is of one
// protocol revision, replayed in it, and auto only picks one once
// connected.
func (cf *connFlags) checkRecord() error {
	if cf.record == "" {
		return nil
	}
	if cf.Protocol == "" || cf.Protocol == "auto" || strings.Contains(cf.Protocol, ",") {
		return usagef("--record needs one protocol revision: a recording is replayed in the revision it was made in, and --protocol %s picks none before connecting; add --protocol legacy (2025-11-25) or --protocol modern (2026-07-28)", cf.Protocol)
	}
	return nil
}

// tapRecording creates the --record file (once per run: the test
// command's connections share it) and has the wire log write to it.
func (cf *connFlags) tapRecording(wire *mcpclient.WireLog) (func(), error) {
	if cf.record == "" {
		return nil, nil
	}
	if err := cf.openRecording(); err != nil {
		return nil, err
	}
	untap := wire.Tap(cf.rec.w)
	cf.rec.mu.Lock()
	cf.rec.untaps = append(cf.rec.untaps, untap)
	cf.rec.mu.Unlock()
	return untap, nil
}

// openRecording creates the --record file, unless it is open: a command
// whose connections copy the flags (test) opens it first, for them all.
func (cf *connFlags) openRecording() error {
	if cf.record == "" || cf.rec != nil {
		return nil
	}
	f, err := createPrivate(cf.record)
	if err != nil {
		return usagef("--record: %v", err)
	}
	w := record.NewWriter(f)
	cf.rec = &recording{path: cf.record, f: f, w: w, end: w.Close}
	return nil
}

// connected writes the --record header once the first connection's
// handshake is done: what it says is known only then.
func (r *recording) connected(conn *mcpclient.Conn) error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.w == nil || r.f == nil || r.w.Started() {
		return nil
	}
	return r.w.Start(record.HeaderOf(conn))
}

// finishRecording closes the --record file, saying on errOut why it
// holds nothing, if it does not.
func (cf *connFlags) finishRecording(errOut io.Writer) {
	if cf.rec == nil || cf.rec.Recording() == "" {
		return
	}
	if path, err := cf.rec.Stop(); err != nil {
		fmt.Fprintf(errOut, "mcpeek: --record %s: %v\n", path, err)
	}
}

// Recording implements tui.Recorder.
func (r *recording) Recording() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return ""
	}
	return r.path
}

// Start implements tui.Recorder: a new file in the working directory,
// named for the time (mcpeek-20260102-150405.jsonl), created 0600.
func (r *recording) Start(conn *mcpclient.Conn) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f != nil {
		return r.path, errors.New("already recording to " + r.path)
	}
	path := "mcpeek-" + time.Now().Format("20060102-150405") + ".jsonl"
	f, err := safefile.Create(path, 0o600)
	if err != nil {
		return path, err
	}
	stop, err := record.Attach(conn, f)
	if err != nil {
		_ = f.Close()
		_ = os.Remove(path)
		return path, err
	}
	r.path, r.f, r.w, r.untaps, r.end = path, f, nil, nil, stop
	return path, nil
}

// Stop implements tui.Recorder: the recording ends and its file is
// closed.
func (r *recording) Stop() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return r.path, errors.New("not recording")
	}
	for _, untap := range r.untaps {
		untap()
	}
	err := r.end()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	r.f, r.w, r.untaps, r.end = nil, nil, nil, nil
	return r.path, err
}
