package keys

import (
	"reflect"
	"slices"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
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
// it (the help screen, or for the filter and the quit prompt their
// footer), and every key documented is bound.
func TestKeyMapDocumentsEveryKeyAndOnlyThose(t *testing.T) {
	km := NewMap("Tools", "Resources", "Prompts", "Requests", "Log", "Info", "Suite")
	groups := map[string]help.KeyMap{
		"Tabs": km.Tabs, "Filter": km.Filter, "App": km.App, "Form": km.Form,
		"URL": km.URL, "JSON": km.JSON, "Quit": km.Quit, "Save": km.Save, "SaveTest": km.SaveTest, "Level": km.Level, "Servers": km.Servers, "Roots": km.Roots,
		"Login": km.Login, "Apps": km.Apps, "AppTools": km.AppTools, "Tasks": km.Tasks, "Lock": km.Lock, "Controls": km.Controls, "PromptArgs": km.PromptArgs,
	}
	onHelp := map[string]bool{}
	for _, sec := range km.HelpSections() {
		onHelp[reflect.TypeOf(sec.Keys).Name()] = true
	}
	v := reflect.ValueOf(km)
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		t.Run(name, func(t *testing.T) {
			group, ok := groups[name]
			if !ok {
				t.Fatalf("the key map's group %s is not checked here", name)
			}
			bound := boundKeys(v.Field(i))
			short, full := helpKeys(group.ShortHelp()), helpKeys(group.FullHelp()...)
			shown := short
			if onHelp[reflect.TypeOf(group).Name()] {
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
