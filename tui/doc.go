// Package tui is mcpeek's terminal front end: the full-screen inspector,
// and the host that shows each elicitation of `mcpeek call --interactive`
// as a native form on the terminal.
//
// The inspector is one root [Model] that keeps only the program's own:
// Init, Update, View, routing each message to the part it is for, and
// applying the actions the layers and pages return. Its state is in
// parts with methods of their own, which it embeds: the screen's room and
// layout (screen, model.go), the connection (link: connection.go,
// failure.go, auth.go, login.go), the overlay stack (stack: overlay.go,
// with hosted.go applying the layers' actions), the state of the server
// connected (serverState, serverstate.go: replaced whole when the person
// switches servers, servers.go), the queue of requests (requests,
// queue.go), the tool apps (appsState, apps.go) and the header (view.go).
//
// The rest lives in files named for it: the tabs are pages of tui/page,
// which pages.go builds and feeds (tools.go and prompts.go make the
// calls and gets the Tools and Prompts pages ask for, resources.go the
// reads and subscriptions of the Resources page), failure.go says why it
// is not connected (the header's line, and a panel on the Info tab and in
// the Tools pane), clipboard.go copies or saves what a pane shows, and
// the layers over the tabs are in tui/layer, hosted on the stack by
// hosted.go (queue.go and sampling.go for the server's pending
// elicitations and sampling requests, roots.go, appcard.go, arguments.go,
// quit.go).
//
// Tool apps: apps.go opens a tool's MCP App when it is called with an
// app host and hands it the call's outcome; appspanel.go is the Apps panel
// listing the sessions, applink.go the consent card of a link an app asks
// to open.
//
// remember.go keeps what was asked: each tool's results in this session,
// and its last arguments, remembered across runs per server in the user's
// state directory ($XDG_STATE_HOME/mcpeek, else ~/.local/state/mcpeek).
//
// What the server tells reaches the program through notify.go's queue:
// progress.go draws the running call's progress, serverlog.go the
// level picker (the server's log is a view of the Log tab), resources.go
// subscribes to resources, whose updates the Resources tab marks;
// complete.go asks for the
// completions an arguments form shows under its fields.
//
// login.go shows a URL server's login (OAuth) in a card and takes the
// address pasted; auth.go says how mcpeek is authorized, in the header
// and on the Info tab.
//
// What is on top of the screen is decided in one place, the overlay
// stack (overlay.go): the top layer is drawn on top, receives the keys and
// supplies the footer, so the three cannot disagree. A layer that arrives
// (an elicitation) opens over the others and takes the keys; the app card
// lies under them all and the quit prompt over them all. Keys are data
// (keys.go): the footer and the help screen are generated from the
// bindings that route the keys. See docs/architecture.md, section "The
// inspector".
package tui
