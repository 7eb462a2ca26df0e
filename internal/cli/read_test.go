package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// blobBytes are not text: a NUL, bytes that are not UTF-8, a newline.
var blobBytes = []byte{0x89, 'P', 'N', 'G', 0x00, 0xff, 0xfe, '\n', 0x1b}

// resourcesServer serves, over streamable HTTP, a blob resource, a text
// resource and one of two contents.
func resourcesServer(t *testing.T) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "resources", Version: "1"}, nil)
	add := func(uri string, contents ...*mcp.ResourceContents) {
		s.AddResource(&mcp.Resource{URI: uri, Name: uri}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: contents}, nil
		})
	}
	add("test://image.png", &mcp.ResourceContents{URI: "test://image.png", MIMEType: "image/png", Blob: blobBytes})
	add("test://notes.md", &mcp.ResourceContents{URI: "test://notes.md", MIMEType: "text/markdown", Text: "# Notes\n\nline two\n"})
	add("test://two", &mcp.ResourceContents{URI: "test://two/a", Text: "a"}, &mcp.ResourceContents{URI: "test://two/b", Text: "b"})
	// The echoes quote back the bearer token the client sent.
	for _, blob := range []bool{false, true} {
		uri := "test://echo-text"
		if blob {
			uri = "test://echo-blob"
		}
		s.AddResource(&mcp.Resource{URI: uri, Name: uri}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			c := &mcp.ResourceContents{URI: uri, Text: "key=" + strings.TrimPrefix(req.Extra.Header.Get("Authorization"), "Bearer ")}
			if blob {
				c.Blob, c.Text = []byte(c.Text), ""
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
		})
	}
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestReadOutHoldsNoSecret: a resource that quotes a secret of the run
// back (an -H credential) is written with it redacted, as it would be printed;
// a blob, which redaction would break, is not written at all.
func TestReadOutHoldsNoSecret(t *testing.T) {
	url := resourcesServer(t)
	dir := t.TempDir()
	text := filepath.Join(dir, "text")
	code, _, stderr := run("read", "test://echo-text", "--out", text, "-H", "Authorization: Bearer sekrit-key-123", url)
	if got, _ := os.ReadFile(text); code != exitOK || string(got) != "key=[redacted]" {
		t.Errorf("text: exit %d, stderr %q, the file holds %q", code, stderr, got)
	}
	blob := filepath.Join(dir, "blob")
	code, _, stderr = run("read", "test://echo-blob", "--out", blob, "-H", "Authorization: Bearer sekrit-key-123", url)
	if _, err := os.Lstat(blob); code != exitConnection || err == nil || !strings.Contains(stderr, "the blob holds a secret of this run") {
		t.Errorf("blob: exit %d, stderr %q, written: %v", code, stderr, err == nil)
	}
}

// TestCreateNewNeverFollowsALink: the file --out creates is new: a link
// at its path, even to nowhere, is never written through, whoever
// checked the path before.
func TestCreateNewNeverFollowsALink(t *testing.T) {
	dir := t.TempDir()
	path, target := filepath.Join(dir, "out"), filepath.Join(dir, "target")
	link(t, target, path)
	if err := createNew(path, []byte("data"), false); err == nil || !strings.Contains(err.Error(), "is already there") {
		t.Errorf("createNew = %v", err)
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("a file was created through the link")
	}
}

// TestRead: read prints the ReadResourceResult as JSON, like call.
func TestRead(t *testing.T) {
	code, stdout, stderr := run("read", "fixture://greeting/French")
	if code != exitOK || !strings.Contains(stdout, `"uri": "fixture://greeting/French"`) || !strings.Contains(stdout, `"text": "Bonjour"`) || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, _, stderr := run("read"); code != exitUsage || !strings.Contains(stderr, "read: name the resource's URI") {
		t.Errorf("no URI: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := run("read", "fixture://nothing-here"); code != exitConnection || !strings.Contains(stderr, "read fixture://nothing-here: ") {
		t.Errorf("no such resource: exit %d, stderr %q", code, stderr)
	}
}

// TestReadOut: --out writes a blob's bytes, decoded, and text as it is,
// to a new file of mode 0644 (less the umask), and says so on stderr.
func TestReadOut(t *testing.T) {
	url := resourcesServer(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		uri, file string
		want      []byte
		wantSaid  string
	}{
		{"test://image.png", "image.png", blobBytes, "mcpeek: wrote 9 B (blob, image/png) to "},
		{"test://notes.md", "notes.md", []byte("# Notes\n\nline two\n"), "mcpeek: wrote 18 B (text, text/markdown) to "},
	} {
		t.Run(tc.uri, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			code, stdout, stderr := run("read", tc.uri, "--out", path, url)
			if code != exitOK || stdout != "" || stderr != tc.wantSaid+path+"\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			got, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(got, tc.want) {
				t.Errorf("the file holds %q (%v), want %q", got, err, tc.want)
			}
			if mask, ok := umask(); ok {
				if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o644&^mask {
					t.Errorf("mode %v (%v), want %v", info.Mode().Perm(), err, os.FileMode(0o644&^mask))
				}
			}
		})
	}
	// - is standard output (not a terminal here): the blob's bytes, and no
	// file named "-".
	t.Chdir(dir)
	if code, stdout, stderr := run("read", "test://image.png", "--out", "-", url); code != exitOK || stdout != string(blobBytes) {
		t.Errorf("--out -: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Lstat(filepath.Join(dir, "-")); err == nil {
		t.Error(`--out - wrote a file named "-"`)
	}
	code, stdout, stderr := run("read", "test://two", "--out", filepath.Join(dir, "two"), url)
	if code != exitConnection || stdout != "" || !strings.Contains(stderr, "the server returned 2 contents, and --out writes one") {
		t.Errorf("two contents: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Lstat(filepath.Join(dir, "two")); err == nil {
		t.Error("two contents: a file was written")
	}
}

// umask is the process's file mode creation mask, where /proc says it.
func umask() (os.FileMode, bool) {
	if runtime.GOOS != "linux" {
		return 0, false
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "Umask:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32)
			return os.FileMode(n), err == nil
		}
	}
	return 0, false
}

// TestReadOutNeverOverwrites: --out never replaces what is at its path
// without --force, and never writes through a symbolic link, with it or
// without: what the link leads to keeps its content, and a link to
// nowhere creates nothing.
func TestReadOutNeverOverwrites(t *testing.T) {
	url := resourcesServer(t)
	for _, tc := range []struct {
		name    string
		force   bool
		plant   func(t *testing.T, dir, path string) string // the file that must keep "mine"
		wantErr string                                      // "" when written
	}{
		{"a file", false, func(t *testing.T, _, path string) string { writeFile(t, path, "mine"); return path }, "is already there: give --force to replace it"},
		{"a file, --force", true, func(t *testing.T, _, path string) string { writeFile(t, path, "mine"); return "" }, ""},
		{"a link to a file", false, func(t *testing.T, dir, path string) string {
			target := filepath.Join(dir, "target")
			writeFile(t, target, "mine")
			link(t, target, path)
			return target
		}, "is already there: give --force to replace it"},
		{"a link to a file, --force", true, func(t *testing.T, dir, path string) string {
			target := filepath.Join(dir, "target")
			writeFile(t, target, "mine")
			link(t, target, path)
			return target
		}, "is not a regular file (a symbolic link): --force replaces only a file"},
		{"a link to nowhere", false, func(t *testing.T, dir, path string) string {
			link(t, filepath.Join(dir, "created-through-the-link"), path)
			return ""
		}, "is already there"},
		{"a folder, --force", true, func(t *testing.T, _, path string) string {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
			return ""
		}, "is not a regular file (a folder)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.md")
			kept := tc.plant(t, dir, path)
			args := []string{"read", "test://notes.md", "--out", path}
			if tc.force {
				args = append(args, "--force")
			}
			code, _, stderr := run(append(args, url)...)
			switch {
			case tc.wantErr == "" && code != exitOK:
				t.Fatalf("exit %d, stderr %q", code, stderr)
			case tc.wantErr != "" && (code != exitUsage || !strings.Contains(stderr, tc.wantErr)):
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, stderr, exitUsage, tc.wantErr)
			}
			if kept != "" {
				if got, _ := os.ReadFile(kept); string(got) != "mine" {
					t.Errorf("%s now holds %q", kept, got)
				}
			}
			if _, err := os.Lstat(filepath.Join(dir, "created-through-the-link")); err == nil {
				t.Error("a file was created through the link")
			}
			if tc.wantErr == "" {
				if got, _ := os.ReadFile(path); string(got) != "# Notes\n\nline two\n" {
					t.Errorf("%s holds %q", path, got)
				}
			}
		})
	}
	if code, _, stderr := run("read", "test://notes.md", "--force", url); code != exitUsage || !strings.Contains(stderr, "--force goes with --out") {
		t.Errorf("--force alone: exit %d, stderr %q", code, stderr)
	}
}

func link(t *testing.T, target, path string) {
	t.Helper()
	if err := os.Symlink(target, path); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// TestPrompt: prompt prints the GetPromptResult as JSON, its arguments
// given as a JSON object of strings.
func TestPrompt(t *testing.T) {
	code, stdout, stderr := run("prompt", "greet", "--args", `{"language":"French","name":"Ada"}`)
	if code != exitOK || !strings.Contains(stdout, `"text": "Say \"Bonjour\" to Ada."`) || !strings.Contains(stdout, `"role": "user"`) || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, tc := range []struct {
		args    []string
		wantErr string
	}{
		{[]string{"prompt"}, "prompt: name the prompt to get"},
		{[]string{"prompt", "greet", "--args", `{"language":1}`}, `--args: a prompt's arguments are strings, and "language" is a number: write it in quotes`},
		{[]string{"prompt", "greet", "--args", `[]`}, "--args must be a JSON object"},
		{[]string{"prompt", "no_such_prompt"}, "prompt no_such_prompt: "},
	} {
		code, stdout, stderr := run(tc.args...)
		if code == exitOK || stdout != "" || !strings.Contains(stderr, tc.wantErr) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tc.args, code, stdout, stderr, tc.wantErr)
		}
	}
}
