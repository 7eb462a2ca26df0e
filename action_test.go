package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// action is what TestActionYAML reads of action.yml.
type action struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Inputs      map[string]struct {
		Description string  `yaml:"description"`
		Default     *string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			Run   string `yaml:"run"`
			Uses  string `yaml:"uses"`
			Shell string `yaml:"shell"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// TestActionYAML: the GitHub Action (uses: mcpeek/mcpeek@v1) is a valid
// composite action whose every input is described there and in the
// README, is used by a step and is only read from the environment, and
// whose scripts exist. .ci/release-check runs the scripts themselves.
func TestActionYAML(t *testing.T) {
	data, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Name == "" || a.Description == "" || a.Runs.Using != "composite" || len(a.Runs.Steps) == 0 {
		t.Fatalf("action.yml: want a name, a description and composite steps, got %+v", a)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"command", "args", "version", "working-directory"}
	var names []string
	for name, in := range a.Inputs {
		names = append(names, name)
		if strings.TrimSpace(in.Description) == "" {
			t.Errorf("input %s has no description", name)
		}
		if in.Default == nil {
			t.Errorf("input %s has no default", name)
		}
		if !strings.Contains(string(readme), "`"+name+"`") {
			t.Errorf("input %s is not documented in the README", name)
		}
		if !strings.Contains(string(data), "inputs."+name+" }}") {
			t.Errorf("input %s is not used by any step", name)
		}
	}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("inputs %v, want %v", names, want)
	}
	script := regexp.MustCompile(`\$GITHUB_ACTION_PATH/([^"' ]+)`)
	expr := regexp.MustCompile(`\$\{\{`)
	for i, s := range a.Runs.Steps {
		if s.Run == "" {
			continue
		}
		if s.Shell == "" {
			t.Errorf("step %d runs a script with no shell", i)
		}
		// An input pasted into a script would run as code; they reach
		// the scripts through env.
		if expr.MatchString(s.Run) {
			t.Errorf("step %d's script has a ${{ }} expression; pass it in env", i)
		}
		for _, m := range script.FindAllStringSubmatch(s.Run, -1) {
			info, err := os.Stat(m[1])
			if err != nil {
				t.Errorf("step %d: %v", i, err)
			} else if info.Mode()&0o111 == 0 {
				t.Errorf("step %d: %s is not executable", i, m[1])
			}
		}
	}
}
