package tui

import (
	"testing"

	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// What the server tells, at each size: its log, a call's progress, and
// completions under a field.
func TestNotifyGoldens(t *testing.T) {
	t.Parallel()
	k := keys.NewMap()
	for _, tc := range []struct {
		name  string
		steps func(in *inspector)
	}{
		{"server_log", func(in *inspector) {
			in.press(k.Tabs.LogLevel).expect("Server log level").keys("j", "j", "j").press(layer.LevelKeys.Choose).expect("now logs at warning")
			in.selectTool("log_burst").keys("enter").expect("logged 8 messages")
			in.keys("5").press(k.Tabs.LogView).expect("a emergency message")
		}},
		{"running_call", func(in *inspector) {
			in.countDown(3, 1500).expectAll("1/3", "step 1 of 3")
		}},
		{"suggestions", func(in *inspector) {
			in.keys("3").expect("greet").keys("enter").argsOpen("Arguments for the prompt greet")
			in.tm.Type("F")
			in.expectAll("› Finnish", "1 of 2")
		}},
	} {
		for _, size := range sizes {
			t.Run(tc.name+"/"+size.name, func(t *testing.T) {
				t.Parallel()
				in := open(t, Options{Connect: inMemory(fixtureServer, "legacy")}, size.w, size.h).expect("choose_option")
				tc.steps(in)
				checkGolden(t, in.screen())
			})
		}
	}
}
