// Package tui is mcpeek's terminal front end: the full-screen inspector,
// and the host that shows each elicitation of `mcpeek call --interactive`
// as a native form on the terminal (asker.go, appstatus.go).
//
// The inspector is built of parts in sub-packages that never import this
// one: tui/widget (the shared look, text helpers, the List and the Pane),
// tui/keys (the keys every page shares, as data: the footer and the help
// screen are made from the bindings that route the keys; each layer
// declares its own next to it, registered in tui/layer/keys.go), tui/page
// (one type per tab) and tui/layer (one type per screen over the tabs). A
// page or a layer owns its state and keys, and answers each message with
// an action the root applies at once, inside the same Update.
//
// The root [Model] keeps only the program's own: Init, Update, View,
// routing each message to the part it is for, and applying the actions
// the pages and layers return. Its state is in parts with methods of
// their own, which it embeds: the screen's room and layout (screen,
// model.go), the connection (link: connection.go, failure.go, auth.go,
// login.go), the tabs (tabs.go: the pages and the one shown, each page
// addressed by its type; pages.go lists them, the one line a new tab
// adds, and feeds them), the overlay stack (stack: overlay.go: the layers
// themselves, drawn and given keys by the interfaces they implement), the
// state of the server connected (serverState, serverstate.go: replaced
// whole when the person switches servers, servers.go), the queue of
// requests (requests, queue.go, events.go, sampling.go), the tool apps
// (appsState: apps.go, appcard.go, appspanel.go, apptools.go, applink.go)
// and the header (view.go).
//
// What the pages ask is carried out in files named for it: tools.go and
// prompts.go make the calls and gets (progress.go follows a call's
// progress notifications, urlrequired.go a call refused until a page is
// opened, remember.go a tool's last arguments, kept per server in the
// user's state directory), resources.go the reads and subscriptions,
// clipboard.go copies or saves what a pane shows, arguments.go opens the
// forms for arguments (skeleton.go is the JSON editor's start), roots.go,
// tasks.go, serverlog.go (the log level), lock.go (the surface lock),
// suite.go (the Suite tab's runs, each project test reviewed and approved
// before its first), quit.go.
//
// What the server tells reaches the program through notify.go's queue, at
// most 30 batches a second.
//
// Every action, a page's, a layer's or the program's own, is carried out
// in one place, actions.go (Model.do); one it does not know is reported
// on the status line, and fails the package's tests.
//
// The route of a key: Update hands it to the top of the overlay stack
// (overlay.go); the top layer's Update returns an action (actions.go
// applies it: close, open another layer, answer the server…), or, when
// the tabs are on top, tabs.go takes the program's own keys and gives the
// rest to the page shown, whose action actions.go applies; then View
// draws the header, the tab bar, what the top of the stack draws, and its
// footer. See docs/architecture.md, section "The inspector".
package tui
