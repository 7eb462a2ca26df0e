// Package widget holds the inspector's shared look and parts: the styles
// and [Common] (size, styles, keys and the footer's renderer) that travel
// to every page and layer, the text helpers that make a server's text safe
// to draw ([Clean], [Line], [Block], [Fit], [Wrap], [CutText]), the
// on-screen redaction of the secrets the inspector knows ([Shown],
// [Redact]), the note by a secret field a form does not remember
// ([MarkSecrets]; the rule of what is secret is internal/secret), JSON
// colouring, the [List] (a filterable list cursor, valid
// by construction, that scrolls to keep its selection visible) and the
// [Pane] (a scrollable detail). It imports nothing of the inspector
// itself, so that pages and layers can share it.
package widget
