package layer

import (
	"reflect"
	"slices"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// boundKeys are the keys of every binding in a group of the key map.
func boundKeys(group reflect.Value) []string {
	var keys []string
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch {
		case v.Type() == reflect.TypeFor[key.Binding]():
			ks := v.FieldByName("keys") // unexported: read, not Interface()
			for j := range ks.Len() {
				keys = append(keys, ks.Index(j).String())
			}
		case v.Kind() == reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case v.Kind() == reflect.Array, v.Kind() == reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	walk(group)
	return keys
}

func helpKeys(groups ...[]key.Binding) []string {
	var keys []string
	for _, g := range groups {
		for _, b := range g {
			keys = append(keys, b.Keys()...)
		}
	}
	return keys
}

// Every key the inspector binds is documented where the person can see
// it (the help screen, or for the filter, the prompts and the pickers
// their footer), and every key documented is bound: the groups of the key
// map every page shares, and each layer's.
func TestKeyMapDocumentsEveryKeyAndOnlyThose(t *testing.T) {
	km := keys.NewMap("Tools", "Resources", "Prompts", "Requests", "Log", "Info", "Suite")
	c := widget.NewCommon(km)
	var groups []keyGroup
	v := reflect.ValueOf(km)
	for i := range v.NumField() {
		groups = append(groups, keyGroup{name: v.Type().Field(i).Name, keys: v.Field(i).Interface().(help.KeyMap)})
	}
	groups = append(groups, keyGroups...)
	onHelp := map[reflect.Type]bool{}
	for _, sec := range HelpSections(&c) {
		onHelp[reflect.TypeOf(sec.Keys)] = true
	}
	for _, group := range groups {
		t.Run(group.name, func(t *testing.T) {
			bound := boundKeys(reflect.ValueOf(group.keys))
			short, full := helpKeys(group.keys.ShortHelp()), helpKeys(group.keys.FullHelp()...)
			shown := short
			if onHelp[reflect.TypeOf(group.keys)] {
				shown = full
			}
			for _, k := range bound {
				if !slices.Contains(shown, k) {
					t.Errorf("%s is bound but not documented", k)
				}
			}
			for _, k := range append(short, full...) {
				if !slices.Contains(bound, k) {
					t.Errorf("%s is documented but not bound", k)
				}
			}
		})
	}
}
