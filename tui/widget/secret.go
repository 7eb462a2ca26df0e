// The arguments form's note by a secret field, whose value is never
// remembered (the rule of what is secret: internal/secret).

package widget

import (
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/secret"
)

// NotRemembered is the note by a secret field in the arguments form.
const NotRemembered = "not remembered"

// MarkSecrets is a schema whose secret fields (those secret.Fields finds
// in the tool's input schema) say by their description that they are not
// remembered. It is a copy: parsed schemas are shared.
func MarkSecrets(schema *formschema.Schema, input any) *formschema.Schema {
	own := *schema
	own.Fields = secret.MarkFields(schema.Fields, input, func(f *formschema.Field) {
		if f.Description == "" {
			f.Description = NotRemembered
		} else {
			f.Description += " · " + NotRemembered
		}
	})
	return &own
}
