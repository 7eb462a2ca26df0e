package mcpclient

// A tool app's messages to the conversation (ui/message and
// ui/update-model-context), decoded here so that what shows them reads
// typed values, however loosely an app wrote them.

import "encoding/json"

// AppMessage is a tool app's ui/message or ui/update-model-context.
type AppMessage struct {
	// Kind is the method: ui/message or ui/update-model-context.
	Kind string
	// Params are the message's params as the app sent them.
	Params json.RawMessage
	// Object reports whether the params are a JSON object; when they are
	// not, nothing else below is set.
	Object bool
	// Role is who speaks ("user"), when the app says.
	Role string
	// Content is the message's content blocks; a single block not in a
	// list counts as one.
	Content []AppMessageBlock
	// StructuredContent is the message's structured content, nil when it
	// has none.
	StructuredContent json.RawMessage
}

// AppMessageBlock is one content block of an app's message.
type AppMessageBlock struct {
	// Object reports whether the block is a JSON object; when it is not,
	// only Raw is set.
	Object bool
	// Type is the block's type: text, image, audio, resource_link,
	// resource, or whatever else the app wrote.
	Type string
	// Text is a text block's text.
	Text string
	// MIMEType is an image's or a sound's type.
	MIMEType string
	// URI is a resource link's URI, or an embedded resource's.
	URI string
	// Raw is the block as the app sent it.
	Raw json.RawMessage
}

// DecodeAppMessage reads an app's message of the given kind.
func DecodeAppMessage(kind string, params json.RawMessage) AppMessage {
	msg := AppMessage{Kind: kind, Params: params}
	var p struct {
		Role              string          `json:"role"`
		Content           json.RawMessage `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(params, &p) != nil {
		return msg
	}
	msg.Object, msg.Role = true, p.Role
	if len(p.StructuredContent) > 0 && string(p.StructuredContent) != "null" {
		msg.StructuredContent = p.StructuredContent
	}
	var blocks []json.RawMessage
	if json.Unmarshal(p.Content, &blocks) != nil && len(p.Content) > 0 {
		blocks = []json.RawMessage{p.Content} // one block, not in a list
	}
	for _, raw := range blocks {
		msg.Content = append(msg.Content, decodeAppMessageBlock(raw))
	}
	return msg
}

func decodeAppMessageBlock(raw json.RawMessage) AppMessageBlock {
	var b struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		MIMEType string `json:"mimeType"`
		URI      string `json:"uri"`
		Resource *struct {
			URI string `json:"uri"`
		} `json:"resource"`
	}
	if json.Unmarshal(raw, &b) != nil {
		return AppMessageBlock{Raw: raw}
	}
	c := AppMessageBlock{Object: true, Type: b.Type, Text: b.Text, MIMEType: b.MIMEType, URI: b.URI, Raw: raw}
	if b.Type == "resource" {
		c.URI = ""
		if b.Resource != nil {
			c.URI = b.Resource.URI
		}
	}
	return c
}
