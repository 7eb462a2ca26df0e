package tui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// logoBytes are a binary resource's bytes: not UTF-8, with a NUL.
var logoBytes = []byte{0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x00, 0xff}

// blobServer has one binary resource.
func blobServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "blobs", Version: "1"}, nil)
	s.AddResource(&mcp.Resource{URI: "demo://images/logo.png", Name: "logo", MIMEType: "image/png"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "image/png", Blob: logoBytes}}}, nil
		})
	return s
}

// On the Resources tab, w saves a binary resource's bytes as they are
// (decoded), under its URI's name, not the preview the pane shows.
func TestSaveWritesAResourcesBytes(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "logo.png")
	in := open(t, Options{Connect: inMemory(blobServer, "")}, 100, 30).expect("1 Tools")
	in.keys("2").expect("logo").keys("enter").expectAll("[binary, 8 bytes]", "w saves its bytes")
	in.keys("w").expect("save to: logo.png")
	in.keys("ctrl+u")
	in.tm.Type(file)
	in.keys("enter").expect("saved 8 bytes")
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, logoBytes) {
		t.Errorf("the file holds %q, want the resource's bytes %q", got, logoBytes)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode is %v (%v), want 0600", fi.Mode().Perm(), err)
	}
}

// A save never writes through a symbolic link planted at the path, nor
// over a file with other names; a file of the person's own is replaced and
// made private.
func TestSaveIsSafe(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic and hard links need privileges on Windows")
	}
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "planted")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	if err := writeSaved(link, []byte("overwritten")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("saving through a link: %v, want a refusal naming the link", err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "created-through"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := writeSaved(dangling, []byte("x")); err == nil {
		t.Error("a save created a file through a dangling link")
	}
	if _, err := os.Lstat(filepath.Join(dir, "created-through")); err == nil {
		t.Error("the file the dangling link names was created")
	}
	hard := filepath.Join(dir, "hard")
	if err := os.Link(victim, hard); err != nil {
		t.Fatal(err)
	}
	if err := writeSaved(hard, []byte("overwritten")); err == nil || !strings.Contains(err.Error(), "other names") {
		t.Errorf("saving over a hard link: %v, want a refusal", err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "precious" {
		t.Errorf("the file behind the links now holds %q", got)
	}
	own := filepath.Join(dir, "own.txt")
	if err := os.WriteFile(own, []byte("a longer old text"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeSaved(own, []byte("new")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(own)
	if fi, _ := os.Stat(own); string(got) != "new" || fi.Mode().Perm() != 0o600 {
		t.Errorf("own file: %q, mode %v; want new, 0600", got, fi.Mode().Perm())
	}
}
