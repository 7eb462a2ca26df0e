package surface

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// Live reads the surface of the server conn is connected to, for the
// revision it negotiated: the handshake's answer as the wire log kept it
// (go-sdk's structs drop what they do not know, such as a discovery's
// supported revisions), and every list the server's capabilities offer,
// each item as the server wrote it (go-sdk drops execution.taskSupport).
func Live(ctx context.Context, conn *mcpclient.Conn) (*Surface, error) {
	s := &Surface{ProtocolVersion: conn.ProtocolVersion()}
	hs := handshake(conn.Wire())
	s.SupportedVersions = hs.SupportedVersions
	if len(s.SupportedVersions) == 0 && s.ProtocolVersion != "" {
		// initialize names one revision: the one it agreed.
		s.SupportedVersions = []string{s.ProtocolVersion}
	}
	if err := fill(&s.Capabilities, hs.Capabilities, conn.ServerCapabilities()); err != nil {
		return nil, fmt.Errorf("the server's capabilities: %w", err)
	}
	if err := fill(&s.ServerInfo, hs.ServerInfo, conn.ServerInfo()); err != nil {
		return nil, fmt.Errorf("the server's serverInfo: %w", err)
	}
	for _, what := range []string{"tools", "resources", "prompts"} {
		if _, offered := s.Capabilities[what]; !offered {
			continue // not asked: a server need not answer for what it does not offer
		}
		out, err := conn.List(ctx, what)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", what, err)
		}
		for kind, items := range conn.AsListed(out) {
			if err := fill(s.list(kind), nil, items); err != nil {
				return nil, fmt.Errorf("the server's %s: %w", kind, err)
			}
		}
	}
	s.Canonicalize()
	return s, nil
}

// fill decodes raw into dst, or, when raw is empty, the JSON of fallback.
func fill(dst any, raw json.RawMessage, fallback any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
		b, err := json.Marshal(fallback)
		if err != nil {
			return err
		}
		raw = b
	}
	return decode(raw, dst)
}

// handshakeResult is what a surface takes from the handshake's answer.
type handshakeResult struct {
	SupportedVersions []string
	Capabilities      json.RawMessage
	ServerInfo        json.RawMessage
}

// handshake finds the answer to the connection's successful handshake in
// the wire log: a server/discover result (2026-07-28), else an initialize
// result.
func handshake(wire *mcpclient.WireLog) handshakeResult {
	var out handshakeResult
	if wire == nil {
		return out
	}
	asked := map[string]string{} // request id → method
	for _, e := range wire.Entries() {
		switch e.Dir {
		case mcpclient.DirSend:
			if e.Method == "server/discover" || e.Method == "initialize" {
				asked[string(e.ID)] = e.Method
			}
		case mcpclient.DirRecv:
			method, ok := asked[string(e.ID)]
			if !ok || len(e.ID) == 0 {
				continue
			}
			var m struct {
				Result *struct {
					SupportedVersions []string                   `json:"supportedVersions"`
					Capabilities      json.RawMessage            `json:"capabilities"`
					ServerInfo        json.RawMessage            `json:"serverInfo"`
					Meta              map[string]json.RawMessage `json:"_meta"`
				} `json:"result"`
			}
			if json.Unmarshal(e.Message, &m) != nil || m.Result == nil {
				continue
			}
			out = handshakeResult{Capabilities: m.Result.Capabilities, ServerInfo: m.Result.ServerInfo}
			if method == "server/discover" {
				out.SupportedVersions = m.Result.SupportedVersions
				out.ServerInfo = m.Result.Meta["io.modelcontextprotocol/serverInfo"]
			}
		}
	}
	return out
}
