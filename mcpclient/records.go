package mcpclient

import (
	"encoding/json"
	"io"
	"sync"
	"time"
)

// Path is the way an elicitation was answered.
type Path string

// Elicitation paths.
const (
	PathApp    Path = "app"
	PathNative Path = "native"
	PathURL    Path = "url"
	// PathAuto: mcpeek answered without asking anyone (roots/list).
	PathAuto Path = "auto"
)

// Kinds of server→client request a record describes.
const (
	KindElicitation = "elicitation"
	KindSampling    = "sampling"
	KindRoots       = "roots"
)

// Record is what mcpeek keeps about one server→client request: an
// elicitation, a sampling request or a roots listing (docs/architecture.md,
// "Records").
type Record struct {
	Key string `json:"key"`
	// Kind is elicitation, sampling or roots.
	Kind   string `json:"kind"`
	Server string `json:"server"`
	Era    string `json:"era"`
	// Mode is an elicitation's form or url.
	Mode        string         `json:"mode,omitempty"`
	ResourceURI string         `json:"resourceUri,omitempty"`
	Path        Path           `json:"path"`
	Fallback    FallbackReason `json:"fallback"`
	// Action is an elicitation's accept, decline or cancel; a sampling
	// request's accept, reject or cancel; a roots listing's answered.
	Action string `json:"action"`
	// TaskID is the task a request was made for (_meta related-task).
	TaskID     string    `json:"taskId,omitempty"`
	Error      string    `json:"error"`
	ReceivedAt time.Time `json:"receivedAt"`
	AppInitMs  int64     `json:"appInitMs,omitempty"`
	AnsweredMs int64     `json:"answeredMs"`
	// Message, Request and Response are kept for the inspector's history
	// (the server's message, the request's params and the answer sent, as
	// JSON); they are not part of the log line.
	Message  string          `json:"-"`
	Request  json.RawMessage `json:"-"`
	Response json.RawMessage `json:"-"`
}

// Recorder keeps every settled record in memory and writes each as one JSON
// line to an optional sink (--elicit-log).
type Recorder struct {
	mu      sync.Mutex
	records []Record
	sink    io.Writer
}

// NewRecorder returns a recorder writing to sink when it is not nil.
func NewRecorder(sink io.Writer) *Recorder { return &Recorder{sink: sink} }

func (r *Recorder) settle(rec Record) {
	if r == nil {
		return
	}
	rec.AnsweredMs = time.Since(rec.ReceivedAt).Milliseconds()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, rec)
	if r.sink != nil {
		if b, err := jsonLine(rec); err == nil {
			_, _ = r.sink.Write(b)
		}
	}
}

// Records returns a copy of the settled records, oldest first.
func (r *Recorder) Records() []Record {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Record(nil), r.records...)
}
