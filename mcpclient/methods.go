package mcpclient

// The names of the protocol's methods that mcpeek's packages name outside
// the requests go-sdk makes for them (go-sdk keeps its own unexported):
// one spelling, checked by the compiler.

// MCP methods.
const (
	MethodInitialize            = "initialize"
	MethodDiscover              = "server/discover" // 2026-07-28's initialize
	MethodListTools             = "tools/list"
	MethodCallTool              = "tools/call"
	MethodListResources         = "resources/list"
	MethodListResourceTemplates = "resources/templates/list"
	MethodListPrompts           = "prompts/list"
	MethodListTasks             = "tasks/list"
	// MethodElicit and MethodSample are the requests an answers-file
	// entry can answer.
	MethodElicit = "elicitation/create"
	MethodSample = "sampling/createMessage"
)

// MCP Apps methods.
const (
	MethodAppOpenLink = "ui/open-link"
)
