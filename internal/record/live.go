package record

import (
	"encoding/json"
	"io"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// HeaderOf is the header of a recording of conn's session.
func HeaderOf(conn *mcpclient.Conn) Header {
	h := Header{
		Recording:          FormatVersion,
		Mcpeek:             mcpclient.Version,
		Protocol:           conn.ProtocolVersion(),
		Transport:          "stdio",
		ClientInfo:         mustJSON(map[string]string{"name": "mcpeek", "title": "mcpeek", "version": mcpclient.Version}),
		ClientCapabilities: conn.SentCapabilities(),
		ServerInfo:         mustJSON(conn.ServerInfo()),
		ServerCapabilities: mustJSON(conn.ServerCapabilities()),
	}
	if conn.Target().Kind == mcpclient.TargetHTTP {
		h.Transport = "http"
	}
	return h
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// Attach starts recording conn's session, already under way, to out: the
// header, the handshake (whole, as the wire log keeps it apart), then
// every entry the log gets until stop is called. stop reports the first
// write error; it does not close out.
func Attach(conn *mcpclient.Conn, out io.Writer) (stop func() error, err error) {
	wire := conn.Wire()
	w := NewWriter(out)
	untap := wire.Tap(w) // kept until the header is written: nothing is lost between
	if err := w.Start(HeaderOf(conn), handshake(wire.Handshake())...); err != nil {
		untap()
		return nil, err
	}
	return func() error {
		untap()
		return w.Close()
	}, nil
}

// handshake is the last handshake in the entries: from the client's
// initialize or server/discover request to its end, the client's
// notifications/initialized (2025-11-25) or the response to
// server/discover (2026-07-28). Nothing when the log no longer holds it.
func handshake(entries []mcpclient.WireEntry) []mcpclient.WireEntry {
	start := -1
	for i, e := range entries {
		if e.Dir == mcpclient.DirSend && (e.Method == "initialize" || e.Method == "server/discover") {
			start = i
		}
	}
	if start < 0 {
		return nil
	}
	first := entries[start]
	for i := start + 1; i < len(entries); i++ {
		e := entries[i]
		switch {
		case first.Method == "initialize" && e.Dir == mcpclient.DirSend && e.Method == "notifications/initialized":
			return entries[start : i+1]
		case first.Method == "server/discover" && e.Dir == mcpclient.DirRecv && e.Method == "" && idKey(e.ID) == idKey(first.ID):
			return entries[start : i+1]
		}
	}
	return nil
}
