//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package mcpclient

import "github.com/modelcontextprotocol/go-sdk/mcp"

// UIExtension is the MCP Apps extension identifier.
const UIExtension = "io.modelcontextprotocol/ui"

// AppMIMEType is the MIME type of an MCP App resource.
const AppMIMEType = "text/html;profile=mcp-app"

// CapabilityOptions are the facts the advertised capabilities depend on.
type CapabilityOptions struct {
	// FormElicitation is false with --no-form-elicitation.
	FormElicitation bool
	// AppHostUp is true only while the app host listener is running;
	// [Connect] sets it from [Config.Renderer].
	AppHostUp bool
	// Sampling is true when a sampler answers sampling requests; Roots
	// when roots are offered. [Connect] sets both from its [Config].
	Sampling bool
	Roots    bool
}

// Capabilities builds the client capabilities mcpeek advertises
// (docs/architecture.md, "Capability advertisement"): core elicitation (form
// unless disabled, url always), sampling and roots when they are answered,
// and the MCP Apps extension only while the
// app host is listening, for without it mcpeek renders no app at all; its
// nested elicitation capability also needs form elicitation on.
func Capabilities(o CapabilityOptions) *mcp.ClientCapabilities {
	caps := &mcp.ClientCapabilities{
		Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}},
	}
	if o.Sampling {
		// Plain sampling: the person writes text, so neither tool use
		// nor context inclusion is claimed.
		caps.Sampling = &mcp.SamplingCapabilities{}
	}
	if o.Roots {
		caps.RootsV2 = &mcp.RootCapabilities{ListChanged: true}
	}
	if o.FormElicitation {
		caps.Elicitation.Form = &mcp.FormElicitationCapabilities{}
	}
	if o.AppHostUp {
		ui := map[string]any{"mimeTypes": []string{AppMIMEType}}
		if o.FormElicitation {
			ui["elicitation"] = map[string]any{}
		}
		caps.AddExtension(UIExtension, ui)
	}
	return caps
}
