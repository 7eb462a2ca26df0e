package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestChooseOptionAnsweredFromFile(t *testing.T) {
	for _, era := range eras {
		for _, tc := range []struct {
			file       string
			wantAction string
			wantChoice any
		}{
			{"choose-option-a.json", "accept", "option-a"},
			{"choose-option-decline.json", "decline", nil},
			{"choose-option-cancel.json", "cancel", nil},
		} {
			t.Run(era.name+"/"+tc.file, func(t *testing.T) {
				log := filepath.Join(t.TempDir(), "elicit.jsonl")
				r := mcpeek(t, "call", "choose_option", "--protocol", era.flag,
					"--answers", filepath.Join("testdata", "answers", tc.file), "--elicit-log", log)
				if r.code != exitOK {
					t.Fatalf("exit %d, stderr: %s", r.code, r.stderr)
				}
				sc := r.structured(t)
				if sc["action"] != tc.wantAction || sc["choice"] != tc.wantChoice {
					t.Errorf("structuredContent = %v, want action %q choice %v", sc, tc.wantAction, tc.wantChoice)
				}
				recs := readRecords(t, log)
				if len(recs) != 1 {
					t.Fatalf("got %d elicitation records, want 1", len(recs))
				}
				rec := recs[0]
				if rec["era"] != era.want || rec["path"] != "native" || rec["fallback"] != "app_host_off" ||
					rec["action"] != tc.wantAction || rec["key"] != "e-1" || rec["mode"] != "form" {
					t.Errorf("record = %v", rec)
				}
			})
		}
	}
}

func TestMultiRoundBothEras(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "elicit.jsonl")
			r := mcpeek(t, "call", "multi_round", "--protocol", era.flag,
				"--answers", "testdata/answers/multi-round.json", "--elicit-log", log)
			if r.code != exitOK {
				t.Fatalf("exit %d, stderr: %s\n%s", r.code, r.stderr, r.stdout)
			}
			sc := r.structured(t)
			if sc["name"] != "Grace" || sc["confirm"] != true || sc["rounds"] != float64(2) {
				t.Errorf("structuredContent = %v", sc)
			}
			recs := readRecords(t, log)
			if len(recs) != 2 || recs[0]["key"] != "e-1" || recs[1]["key"] != "e-2" {
				t.Errorf("records = %v, want two, e-1 and e-2", recs)
			}
		})
	}
}

func TestAllFieldsAcceptDefaults(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			r := mcpeek(t, "call", "all_fields", "--protocol", era.flag, "--on-elicit", "accept-defaults")
			if r.code != exitOK {
				t.Fatalf("exit %d, stderr: %s", r.code, r.stderr)
			}
			sc := r.structured(t)
			content, _ := sc["content"].(map[string]any)
			if sc["action"] != "accept" || content["name"] != "Ada Lovelace" {
				t.Errorf("structuredContent = %v", sc)
			}
			if r.stderr != "" {
				t.Errorf("stderr = %q, want nothing", r.stderr)
			}
		})
	}
}

func TestPolicies(t *testing.T) {
	for _, tc := range []struct {
		policy, wantAction string
		wantCode           int
	}{
		{"cancel", "cancel", exitOK},
		{"decline", "decline", exitOK},
		// choose_option's required choice has no default: the answer cannot
		// be given, so mcpeek cancels and says so.
		{"accept-defaults", "cancel", exitUsage},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			r := mcpeek(t, "call", "choose_option", "--on-elicit", tc.policy)
			if r.code != tc.wantCode {
				t.Fatalf("exit %d, want %d; stderr: %s", r.code, tc.wantCode, r.stderr)
			}
			if got := r.structured(t)["action"]; got != tc.wantAction {
				t.Errorf("action = %v, want %s", got, tc.wantAction)
			}
		})
	}
}

func TestAnswersViolatingSchemaAreNotSent(t *testing.T) {
	r := mcpeek(t, "call", "choose_option", "--answers", "testdata/answers/choose-option-invalid.json")
	if r.code != exitUsage {
		t.Fatalf("exit %d, want %d", r.code, exitUsage)
	}
	if got := r.structured(t)["action"]; got != "cancel" {
		t.Errorf("the server saw action %v, want cancel", got)
	}
	if !strings.Contains(r.stderr, "Choice: must be one of: option-a, option-b") {
		t.Errorf("stderr does not name the field and the problem: %q", r.stderr)
	}
	if strings.Contains(r.stderr, "option-z") {
		t.Errorf("stderr echoes the rejected value: %q", r.stderr)
	}
}

// TestCaps: caps prints the negotiated revision, the server and both
// sides' capabilities; mcpeek claims the MCP Apps extension only with the
// app host running.
func TestCaps(t *testing.T) {
	const (
		elicitation = `"sampling":{},"elicitation":{"form":{},"url":{}}`
		appsExt     = `"extensions":{"io.modelcontextprotocol/ui":{"elicitation":{},"mimeTypes":["text/html;profile=mcp-app"]}}`
		roots       = `"roots":{"listChanged":true}`
	)
	for _, era := range eras {
		for _, tc := range []struct {
			name       string
			flags      []string
			wantClient string
		}{
			{"app host off", nil, "{" + elicitation + "}"},
			{"app host on", []string{"--app-host", "--no-browser"}, "{" + appsExt + "," + elicitation + "}"},
			{"a root", []string{"--root", "."}, "{" + elicitation + "," + roots + "}"},
		} {
			t.Run(era.name+"/"+tc.name, func(t *testing.T) {
				r := mcpeek(t, append([]string{"caps", "--protocol", era.flag}, tc.flags...)...)
				if r.code != exitOK {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
				var got struct {
					ProtocolVersion string          `json:"protocolVersion"`
					Client          json.RawMessage `json:"client"`
					Server          struct {
						Name         string         `json:"name"`
						Title        string         `json:"title"`
						Capabilities map[string]any `json:"capabilities"`
					} `json:"server"`
				}
				if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
					t.Fatal(err)
				}
				if got.ProtocolVersion != era.want || got.Server.Name != "mcpeek-fixture" || got.Server.Title != "mcpeek fixture" {
					t.Errorf("caps = %s", r.stdout)
				}
				if compact(t, got.Client) != tc.wantClient {
					t.Errorf("client capabilities = %s, want %s", compact(t, got.Client), tc.wantClient)
				}
				ext, _ := got.Server.Capabilities["extensions"].(map[string]any)
				if _, ok := ext["io.modelcontextprotocol/ui"]; !ok {
					t.Errorf("server capabilities lack the Apps extension: %v", got.Server.Capabilities)
				}
			})
		}
	}
}

func TestList(t *testing.T) {
	for _, what := range []string{"tools", "resources", "prompts"} {
		t.Run(what, func(t *testing.T) {
			r := mcpeek(t, "list", what)
			if r.code != exitOK {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var got map[string][]map[string]any
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				t.Fatal(err)
			}
			items, ok := got[what]
			if !ok {
				t.Fatalf("output has no %q: %s", what, r.stdout)
			}
			names := map[string]bool{}
			for _, it := range items {
				names[fmt.Sprint(it["name"])] = true
				names[fmt.Sprint(it["uri"])] = true
			}
			switch what {
			case "tools":
				for _, n := range []string{"choose_option", "all_fields", "multi_round", "url_consent"} {
					if !names[n] {
						t.Errorf("tool %s missing", n)
					}
				}
			case "resources":
				if !names["ui://fixture/choose-option.html"] {
					t.Errorf("the app resource is missing: %s", r.stdout)
				}
			}
		})
	}
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string // in stderr
	}{
		{"unknown subcommand flag", []string{"call", "--bogus", "x"}, exitUsage, "flag provided but not defined: -bogus"},
		{"unknown root flag", []string{"--bogus"}, exitUsage, "flag provided but not defined"},
		{"call without tool", []string{"call"}, exitUsage, "name the tool"},
		{"mistyped subcommand", []string{"calll", "choose_option"}, exitUsage, `unknown command "calll"`},
		{"rejected answer", []string{"call", "choose_option", "--answers", "testdata/answers/choose-option-invalid.json"}, exitUsage, "Choice: must be one of"},
		{"null answers", []string{"call", "choose_option", "--answers", "testdata/answers/null.json"}, exitUsage, "got null"},
		{"run deadline during connect", []string{"caps", "--timeout", "300ms", "--", "sleep", "5"}, exitTimeout, "context deadline exceeded"},
		{"list of nothing", []string{"list", "widgets"}, exitUsage, `cannot list "widgets"`},
		{"bad protocol", []string{"caps", "--protocol", "newest"}, exitUsage, `--protocol: unknown protocol "newest"`},
		{"bad policy", []string{"call", "x", "--on-elicit", "maybe"}, exitUsage, `unknown --on-elicit policy "maybe"`},
		{"malformed args", []string{"call", "choose_option", "--args", "{nope"}, exitUsage, "--args must be a JSON object"},
		{"args not an object", []string{"call", "choose_option", "--args", "[1]"}, exitUsage, "--args must be a JSON object"},
		{"missing answers file", []string{"call", "choose_option", "--answers", "testdata/answers/none.json"}, exitUsage, "answers file"},
		{"malformed header", []string{"caps", "-H", "NoColon", "http://127.0.0.1:1/"}, exitUsage, `header "NoColon"`},
		{"app host on a foreign address", []string{"caps", "--app-host", "--app-host-addr", "192.0.2.1:80"}, exitUsage, "listens on 127.0.0.1 only"},
		{"command not found", []string{"caps", "--", "mcpeek-no-such-server"}, exitConnection, "connect to mcpeek-no-such-server:"},
		{"url refused", []string{"caps", "http://127.0.0.1:1/mcp"}, exitConnection, "connect to http://127.0.0.1:1/mcp:"},
		{"tool error", append([]string{"call", "fail"}, testServerArgs("tool")...), exitToolError, ""},
		{"server exits mid-call", append([]string{"call", "crash"}, testServerArgs("tool")...), exitConnection, "fatal: out of cheese"},
		{"unknown tool", append([]string{"call", "nope"}, testServerArgs("tool")...), exitConnection, "call nope:"},
		{"modern required", append([]string{"caps", "--protocol", "modern"}, testServerArgs("legacy-only")...), exitConnection, "does not speak protocol revision 2026-07-28"},
		{"pinned revision refused", append([]string{"caps", "--protocol", "2025-06-18"}, testServerArgs("legacy-only")...), exitConnection, "does not speak protocol revision 2025-06-18 (it negotiated 2025-11-25)"},
		{"connect timeout", []string{"caps", "--connect-timeout", "300ms", "--", "sleep", "5"}, exitTimeout, "connect to sleep 5: no answer within 300ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mcpeek(t, tc.args...)
			if r.code != tc.wantCode {
				t.Fatalf("exit %d, want %d; stderr: %s", r.code, tc.wantCode, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.wantErr) {
				t.Errorf("stderr = %q, want it to contain %q", r.stderr, tc.wantErr)
			}
			if tc.wantCode != exitToolError {
				msg := strings.TrimSuffix(r.stderr, "Run 'mcpeek help' for usage.\n")
				if lines := strings.Count(strings.TrimSpace(msg), "\n") + 1; lines != 1 {
					t.Errorf("stderr has %d lines, want one: %q", lines, r.stderr)
				}
			}
			if tc.wantCode == exitUsage && r.stdout != "" && tc.name != "rejected answer" {
				t.Errorf("a usage error wrote to stdout: %q", r.stdout)
			}
		})
	}
}

func TestLegacyOnlyServerWorksInAuto(t *testing.T) {
	r := mcpeek(t, append([]string{"caps"}, testServerArgs("legacy-only")...)...)
	if r.code != exitOK || !strings.Contains(r.stdout, `"protocolVersion": "2025-11-25"`) {
		t.Fatalf("exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestPinnedRevision: --protocol takes a revision date, asks for exactly it
// and gets it from a server that speaks it.
func TestPinnedRevision(t *testing.T) {
	for _, rev := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		r := mcpeek(t, "caps", "--protocol", rev)
		if r.code != exitOK || !strings.Contains(r.stdout, `"protocolVersion": "`+rev+`"`) {
			t.Errorf("--protocol %s: exit %d, stdout %s, stderr %s", rev, r.code, r.stdout, r.stderr)
		}
	}
}

func TestInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	r := mcpeekCtx(t, ctx, "caps", "--", "sleep", "5")
	if r.code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr %s", r.code, exitInterrupted, r.stderr)
	}
}

func TestDemoSummary(t *testing.T) {
	r := mcpeek(t)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"mcpeek fixture (mcpeek-fixture", "protocol 2026-07-28", "choose_option", "call choose_option --answers testdata/answers/choose-option-a.json",
		"add_note               (for its app only)", "call ask_model --answers testdata/answers/sampling.json"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestBinaryAgainstFixture runs the built binary against itself serving the
// fixture, over stdio and over streamable HTTP, as the README shows.
func TestBinaryAgainstFixture(t *testing.T) {
	bin := mcpeekBin
	check := func(t *testing.T, out []byte) {
		var res struct {
			StructuredContent map[string]any `json:"structuredContent"`
		}
		if err := json.Unmarshal(out, &res); err != nil || res.StructuredContent["choice"] != "option-a" {
			t.Fatalf("unexpected result (%v):\n%s", err, out)
		}
	}
	t.Run("stdio", func(t *testing.T) {
		cmd := exec.Command(bin, "call", "choose_option", "--answers", "testdata/answers/choose-option-a.json", "--", bin, "fixture")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %s", err, stderrOf(err))
		}
		check(t, out)
	})
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("http/stateless=%v", stateless), func(t *testing.T) {
			args := []string{"fixture", "--http", "127.0.0.1:0"}
			if stateless {
				args = append(args, "--stateless")
			}
			srv := exec.Command(bin, args...)
			stderr, _ := srv.StderrPipe()
			if err := srv.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
			line, err := bufio.NewReader(stderr).ReadString('\n')
			if err != nil {
				t.Fatalf("fixture said nothing: %v", err)
			}
			url := regexp.MustCompile(`http://\S+`).FindString(line)
			out, err := exec.Command(bin, "call", "choose_option", "--answers", "testdata/answers/choose-option-a.json", url).Output()
			if err != nil {
				t.Fatalf("%v: %s", err, stderrOf(err))
			}
			check(t, out)
		})
	}
}

// A call the server refuses until a page is opened (-32042) names the page
// on stderr, records it with path url, and exits 1 saying what to do; an
// answers-file entry consenting to the page (the person's stand-in) has
// the call made again, which succeeds.
func TestURLRequiredHeadless(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name+"/refused", func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "elicit.jsonl")
			r := mcpeek(t, "call", "url_required", "--protocol", era.flag, "--elicit-log", log)
			if r.code != exitToolError || r.stdout != "" {
				t.Fatalf("exit %d, stdout %q; want 1 and nothing", r.code, r.stdout)
			}
			page := regexp.MustCompile(`(?m)^mcpeek:   (https://example\.com/mcpeek-fixture/consent\?id=\S+)$`).FindStringSubmatch(r.stderr)
			if page == nil || !strings.Contains(r.stderr, "refused tools/call url_required until you open") ||
				!strings.Contains(r.stderr, "open it, then run the call again") {
				t.Fatalf("stderr does not name the page and what to do:\n%s", r.stderr)
			}
			recs := readRecords(t, log)
			if len(recs) != 1 || recs[0]["mode"] != "url" || recs[0]["path"] != "url" || recs[0]["action"] != "cancel" || recs[0]["era"] != era.want {
				t.Errorf("records = %v, want the page, path url, not consented to", recs)
			}
		})
		t.Run(era.name+"/retried", func(t *testing.T) {
			r := mcpeek(t, "call", "url_required", "--protocol", era.flag, "--answers", "testdata/answers/url-required.json")
			if r.code != exitOK {
				t.Fatalf("exit %d; stderr: %s", r.code, r.stderr)
			}
			if id, _ := r.structured(t)["elicitationId"].(string); id == "" || !strings.Contains(r.stderr, "consent?id="+id) ||
				!strings.Contains(r.stderr, "calling url_required again") {
				t.Errorf("the call made again answered for %q; stderr:\n%s", id, r.stderr)
			}
		})
	}
}
