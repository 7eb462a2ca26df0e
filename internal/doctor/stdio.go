package doctor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// stdioSteps check a command server: that the command is there, and that
// it starts and answers on stdout with JSON-RPC alone.
func (d *doctor) stdioSteps(ctx context.Context) {
	t := d.cfg.Target
	var path string
	d.step("command", func() outcome {
		var o outcome
		path, o = findCommand(t)
		return o
	})
	d.step("start", func() outcome { return d.start(ctx, path) })
}

// findCommand finds the target's program as its process will: on the
// PATH its environment gives it, or relative to its directory.
func findCommand(t mcpclient.Target) (string, outcome) {
	name := t.Command[0]
	if strings.ContainsAny(name, `/\`) {
		path := name
		if !filepath.IsAbs(path) && t.Dir != "" {
			path = filepath.Join(t.Dir, path)
		}
		found, err := exec.LookPath(path)
		if err != nil {
			return "", failed(fmt.Sprintf("%s: %v", path, lookWord(err)), "give the path of an executable file")
		}
		return found, passed("%s", found)
	}
	// The server's own PATH, which LookPath does not take.
	if found, given := mcpclient.ServerPathLookup(name, t.Env); found != "" {
		return found, passed("%s (on the server's PATH)", found)
	} else if given {
		return "", notOnPath(name)
	}
	found, err := exec.LookPath(name)
	if err != nil {
		return "", notOnPath(name)
	}
	return found, passed("%s", found)
}

func notOnPath(name string) outcome {
	return failed(fmt.Sprintf("%s is not on the PATH", name),
		"install it, or give its full path (the PATH searched is mcpeek's, or the server's env PATH)")
}

// lookWord words why a path is no program.
func lookWord(err error) string {
	var pe *os.PathError
	switch {
	case errors.As(err, &pe) && errors.Is(pe.Err, os.ErrNotExist):
		return "no such file"
	case errors.As(err, &pe):
		return pe.Err.Error()
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err.Error()
	}
	return err.Error()
}

// stdoutLine is one line the server wrote on stdout.
type stdoutLine struct{ text string }

// stdioProbe is the server process the start step runs.
type stdioProbe struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File // the read end of the server's stdout
	lines  chan stdoutLine
	exited chan error
	// exitSeen: exitErr holds what exited delivered.
	exitSeen bool
	exitErr  error
	stderr   *tailBuffer
}

// start starts the server, sends initialize as a client's first message
// and reads stdout until the answer: each line must be a JSON-RPC message.
// The process is stopped afterwards.
func (d *doctor) start(ctx context.Context, path string) outcome {
	t := d.cfg.Target
	p := &stdioProbe{cmd: exec.Command(path, t.Command[1:]...), stderr: &tailBuffer{max: 8}}
	p.cmd.Env = append(os.Environ(), t.Env...)
	p.cmd.Dir = t.Dir
	p.cmd.Stderr = p.stderr
	// A child of the server may keep its stderr open: Wait does not
	// wait for it long.
	p.cmd.WaitDelay = 200 * time.Millisecond
	if err := p.launch(); err != nil {
		return failed("cannot start it: "+err.Error(), "")
	}
	defer p.stop()
	init := fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":%q,"params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"mcpeek doctor","version":%q}}}`+"\n",
		mcpclient.MethodInitialize, mcpclient.ProtocolLegacy, mcpclient.Version)
	_, _ = io.WriteString(p.stdin, init)
	return d.awaitAnswer(ctx, p)
}

// launch starts the process with its stdout on a pipe of its own, so that
// stop can end the reading even when a child of the server holds it.
func (p *stdioProbe) launch() error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	p.cmd.Stdout = w
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		_, _ = r.Close(), w.Close()
		return err
	}
	err = p.cmd.Start()
	_ = w.Close()
	if err != nil {
		_ = r.Close()
		return err
	}
	p.stdout = r
	p.lines = make(chan stdoutLine)
	p.exited = make(chan error, 1)
	go readLines(r, p.lines)
	go func() { p.exited <- p.cmd.Wait() }()
	return nil
}

// stop stops the server as a client does, closing its stdin, and kills it
// if it lingers; then ends the reading.
func (p *stdioProbe) stop() {
	_ = p.stdin.Close()
	if !p.exitSeen {
		select {
		case <-p.exited:
		case <-time.After(250 * time.Millisecond):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	}
	_ = p.stdout.Close()
	for range p.lines {
	}
}

// awaitAnswer reads stdout until the answer to initialize, the first line
// that is not JSON-RPC, the process's end or the connect timeout.
func (d *doctor) awaitAnswer(ctx context.Context, p *stdioProbe) outcome {
	ctx, cancel := context.WithTimeout(ctx, d.dialTimeout())
	defer cancel()
	start := time.Now()
	n := 0
	var grace <-chan time.Time // after the exit, for the last lines
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				if !p.exitSeen {
					p.exitErr, p.exitSeen = <-p.exited, true
				}
				return p.exitOutcome()
			}
			n++
			if !isJSONRPC(l.text) {
				return failed(fmt.Sprintf("stdout line %d is not JSON-RPC: %q", n, textclean.Cut(d.secrets.Redact(l.text), 100)),
					"a stdio server must write only JSON-RPC messages on stdout: send logs and banners to stderr")
			}
			if answersInit(l.text) {
				detail := fmt.Sprintf("pid %d answered initialize in %dms", p.cmd.Process.Pid, time.Since(start).Milliseconds())
				detail += stderrNote(p.stderr.count())
				return passed("%s", detail)
			}
		case err := <-p.exited:
			p.exitErr, p.exitSeen = err, true
			grace = time.After(200 * time.Millisecond)
		case <-grace:
			return p.exitOutcome()
		case <-ctx.Done():
			return failed(joinDetail(fmt.Sprintf("started, but no answer to initialize within %s", d.dialTimeout()), p.stderr.text()),
				"a stdio server reads JSON-RPC lines on stdin and answers on stdout: is it waiting for something else (a login, a terminal)?")
		}
	}
}

func (p *stdioProbe) exitOutcome() outcome {
	return failed(joinDetail("the server exited before answering initialize: "+exitWord(p.exitErr), p.stderr.text()),
		"run the command by hand to see why it stops; its stderr is above")
}

// stderrNote is what the start step adds about the server's stderr, once
// it answered: how many lines it wrote there, if any.
func stderrNote(lines int) string {
	if lines == 0 {
		return ""
	}
	return "; " + counted(lines, "line") + " on stderr (where logs belong)"
}

// readLines sends each line of r, and closes lines when r ends.
func readLines(r io.Reader, lines chan<- stdoutLine) {
	defer close(lines)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		lines <- stdoutLine{text: sc.Text()}
	}
}

func exitWord(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ProcessState.String()
	}
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// isJSONRPC reports whether a line is one JSON-RPC message (or a batch).
func isJSONRPC(line string) bool {
	var m struct {
		JSONRPC string `json:"jsonrpc"`
	}
	line = strings.TrimSpace(line)
	if strings.HasPrefix(line, "[") {
		var batch []json.RawMessage
		return json.Unmarshal([]byte(line), &batch) == nil && len(batch) > 0 && isJSONRPC(string(batch[0]))
	}
	return json.Unmarshal([]byte(line), &m) == nil && m.JSONRPC == "2.0"
}

// answersInit reports whether a line answers the probe's initialize (id 0).
func answersInit(line string) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	return json.Unmarshal([]byte(line), &m) == nil && m.Method == "" && string(m.ID) == "0"
}

// tailBuffer keeps the last lines written to it (a server's stderr).
type tailBuffer struct {
	mu      sync.Mutex
	max     int
	partial string
	lines   []string
	total   int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	text := b.partial + string(p)
	parts := strings.Split(text, "\n")
	b.partial = parts[len(parts)-1]
	for _, line := range parts[:len(parts)-1] {
		if line = strings.TrimRight(line, "\r"); strings.TrimSpace(line) == "" {
			continue
		}
		b.total++
		b.lines = append(b.lines, line)
		if len(b.lines) > b.max {
			b.lines = b.lines[1:]
		}
	}
	return len(p), nil
}

func (b *tailBuffer) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}

// text is the last lines, for a report: "stderr: …".
func (b *tailBuffer) text() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := b.lines
	if b.partial != "" {
		lines = append(lines, b.partial)
	}
	if len(lines) == 0 {
		return ""
	}
	return "stderr: " + strings.Join(lines, " | ")
}
