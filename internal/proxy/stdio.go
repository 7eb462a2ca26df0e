package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// Grace periods of stopping the server once the host is gone: its stdin
// is closed first (the way MCP says a stdio client ends), then it is
// asked to terminate, then killed.
const (
	closeGrace = 2 * time.Second
	termGrace  = 2 * time.Second
)

// stdioLink is a stdio proxy's two sides: the host's stdin and stdout,
// the server process's.
type stdioLink struct {
	opts  Options
	track *tracker
	// out is the host's stdout, one message at a time.
	outMu sync.Mutex
	out   io.Writer
	cmd   *exec.Cmd
	// stdin is the server's, one message at a time.
	inMu  sync.Mutex
	stdin io.WriteCloser
	// ans answers for the host (--answer; nil: off).
	ans *answerer
	// exited is closed once the server process has ended.
	exited chan struct{}
	// hostGone is closed once the host has gone (its stdin ended, or the
	// run's context is done): the server's end is then no fault.
	hostGone     chan struct{}
	hostGoneOnce sync.Once
}

// runStdio proxies a stdio host to a server command.
func runStdio(ctx context.Context, opts Options) error {
	l := &stdioLink{opts: opts, out: opts.Out, exited: make(chan struct{}), hostGone: make(chan struct{}),
		track: newTracker(opts.Wire, opts.Record, "stdio")}
	serverOut, err := l.start()
	if err != nil {
		return err
	}
	if opts.Answer == AnswerNever { // the answerer's messages and notes interleave: logged as they go
		stopAside := l.track.logAside()
		defer stopAside()
	} else {
		actx, stopAnswering := context.WithCancel(ctx)
		defer stopAnswering()
		l.ans = newAnswerer(actx, opts, l.track, l.toServer, l.write)
		go func() {
			select {
			case <-l.hostGone:
			case <-l.exited:
			case <-actx.Done():
			}
			stopAnswering()
		}()
	}
	go func() {
		_ = l.cmd.Wait()
		close(l.exited)
	}()
	go l.fromHost()
	go func() {
		select {
		case <-ctx.Done():
			l.leave("the proxy was interrupted", 0)
		case <-l.exited:
		}
	}()
	l.fromServer(serverOut)
	l.track.settle()
	// The server's stdout ended: it exited, or closed it and will.
	select {
	case <-l.exited:
	case <-time.After(closeGrace):
		l.stop(0)
		<-l.exited
	}
	select {
	case <-l.hostGone:
		return context.Cause(ctx) // nil unless interrupted
	default:
	}
	return l.serverGone()
}

// start starts the server process, its stdout on a pipe the proxy reads
// itself (Wait does not close it under a read in progress), its stderr to
// the proxy's and the wire log.
func (l *stdioLink) start() (*os.File, error) {
	t := l.opts.Target
	path := t.Command[0]
	if found, _ := mcpclient.ServerPathLookup(path, t.Env); found != "" {
		path = found
	}
	cmd := exec.Command(path, t.Command[1:]...)
	cmd.Env = append(os.Environ(), t.Env...)
	cmd.Dir = t.Dir
	cmd.Stderr = serverStderr{wire: l.opts.Wire.StderrWriter(), out: l.opts.ErrOut}
	cmd.WaitDelay = time.Second // a child of the server holding its stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		_ = r.Close()
		_ = w.Close()
		return nil, fmt.Errorf("starting the server: %w", err)
	}
	_ = w.Close()
	l.cmd, l.stdin = cmd, stdin
	return r, nil
}

// fromHost forwards the host's messages to the server until the host's
// stdin ends; then the server is stopped.
func (l *stdioLink) fromHost() {
	lr := newLineReader(l.opts.In, l.opts.MaxMessageSize)
	for {
		ln, err := lr.next()
		switch {
		case ln.tooLong:
			l.refuseFromHost(ln)
		case len(ln.data) > 0:
			data := ln.data
			if l.ans != nil {
				data = l.ans.fromHost(data)
			}
			l.track.fromHost(data)
			l.toServer(data)
			l.track.forwarded()
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				l.opts.Wire.Note("proxy: reading the host: " + err.Error())
			}
			l.leave("the host closed the connection", closeGrace)
			return
		}
	}
}

// refuseFromHost answers a host's message over --max-message-size itself
// (when it is a request whose id comes early enough to find): the server
// never sees it.
func (l *stdioLink) refuseFromHost(ln line) {
	l.opts.report(fmt.Sprintf("a message of %d bytes from the host is over --max-message-size (%d): not forwarded", ln.size, l.opts.MaxMessageSize))
	if id := idOf(ln.start); id != "" && id != "null" {
		l.write(errorResponse(id, codeTooLarge, fmt.Sprintf("mcpeek proxy: the request is %d bytes, over the proxy's --max-message-size of %d", ln.size, l.opts.MaxMessageSize)))
	}
}

// fromServer forwards the server's messages to the host until the
// server's stdout ends.
func (l *stdioLink) fromServer(r *os.File) {
	defer r.Close()
	lr := newLineReader(r, l.opts.MaxMessageSize)
	for {
		ln, err := lr.next()
		switch {
		case ln.tooLong:
			l.refuseFromServer(ln)
		case len(ln.data) > 0 && l.ans != nil && l.ans.fromServer(ln.data):
		case len(ln.data) > 0:
			l.track.fromServer(ln.data)
			l.write(ln.data)
			l.track.forwarded()
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				l.opts.Wire.Note("proxy: reading the server: " + err.Error())
			}
			return
		}
	}
}

// refuseFromServer drops a server's message over --max-message-size; a
// response to a host's request becomes an error saying so, as a direct
// connection's client refuses it.
func (l *stdioLink) refuseFromServer(ln line) {
	l.opts.report(fmt.Sprintf("a message of %d bytes from the server is over --max-message-size (%d): not forwarded", ln.size, l.opts.MaxMessageSize))
	if id := idOf(ln.start); id != "" && id != "null" && l.track.isHostOpen(id) {
		l.track.answered(id)
		l.write(errorResponse(id, codeTooLarge, fmt.Sprintf("mcpeek proxy: the server's answer is %d bytes, over the proxy's --max-message-size of %d", ln.size, l.opts.MaxMessageSize)))
	}
}

// toServer writes one message to the server.
func (l *stdioLink) toServer(data []byte) {
	l.inMu.Lock()
	defer l.inMu.Unlock()
	if _, err := l.stdin.Write(data); err != nil {
		l.opts.Wire.Note("proxy: writing to the server: " + err.Error())
	}
}

// write writes one message to the host.
func (l *stdioLink) write(data []byte) {
	l.outMu.Lock()
	defer l.outMu.Unlock()
	if _, err := l.out.Write(data); err != nil {
		l.opts.Wire.Note("proxy: writing to the host: " + err.Error())
	}
}

// leave is the host going away: the server is stopped, given grace to
// end once its stdin is closed (none when the proxy itself is told to
// end: the signal is passed on at once).
func (l *stdioLink) leave(why string, grace time.Duration) {
	l.hostGoneOnce.Do(func() {
		l.track.settle()
		l.opts.Wire.Note("proxy: " + why + "; stopping the server")
		close(l.hostGone)
		go l.stop(grace)
	})
}

// stop ends the server: its stdin closed, then after grace SIGTERM, then
// SIGKILL.
func (l *stdioLink) stop(grace time.Duration) {
	_ = l.stdin.Close()
	select {
	case <-l.exited:
		return
	case <-time.After(grace):
	}
	_ = l.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-l.exited:
		return
	case <-time.After(termGrace):
	}
	_ = l.cmd.Process.Kill()
}

// serverGone answers each host request in flight with an error naming how
// the server ended, and returns that as the run's error.
func (l *stdioLink) serverGone() error {
	status := "its stdout closed"
	if st := l.cmd.ProcessState; st != nil {
		status = st.String()
	}
	gone := &ExitError{Status: status, LastStderr: l.opts.Wire.LastStderr(), Name: l.opts.Name}
	l.opts.Wire.Note("proxy: " + gone.Error())
	for _, id := range l.track.hostOpen() {
		l.write(errorResponse(id, codeServerGone, "mcpeek proxy: "+gone.Error()))
	}
	return gone
}

// serverStderr passes the server's stderr on to the proxy's and to the
// wire log. A failing stderr of the proxy's (a host that closed it) is
// ignored: the server's writes never block or fail for it.
type serverStderr struct{ wire, out io.Writer }

func (s serverStderr) Write(p []byte) (int, error) {
	_, _ = s.out.Write(p)
	return s.wire.Write(p)
}
