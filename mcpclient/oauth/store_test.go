package oauth_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient/oauth"
)

// storeWriterEnv, set, makes TestStoreWriterProcess a writer of the store
// it names ("path;writer"), for TestConcurrentLoginsKeepEveryToken.
const storeWriterEnv = "MCPEEK_TEST_STORE_WRITER"

// puts is how many entries each writer process stores.
const puts = 10

// TestStoreWriterProcess is one of the processes of
// TestConcurrentLoginsKeepEveryToken: it waits for the word on stdin,
// then stores its entries one by one.
func TestStoreWriterProcess(t *testing.T) {
	spec := os.Getenv(storeWriterEnv)
	if spec == "" {
		t.Skip("a helper process of TestConcurrentLoginsKeepEveryToken")
	}
	path, writer, _ := strings.Cut(spec, ";")
	if _, err := io.ReadFull(os.Stdin, make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	store := oauth.OpenStore(path)
	for i := range puts {
		e := &oauth.Entry{Resource: fmt.Sprintf("https://mcp.example/%s/%d", writer, i), Issuer: "https://as.example",
			AccessToken: "at", Saved: time.Now()}
		if err := store.Put(e); err != nil {
			t.Fatal(err)
		}
	}
}

// Eight mcpeek processes storing tokens at once all keep them: each
// update reads, changes and writes the store under its lock.
func TestConcurrentLoginsKeepEveryToken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcpeek", "auth.json")
	const writers = 8
	var cmds []*exec.Cmd
	var gos []io.WriteCloser
	for w := range writers {
		cmd := exec.Command(os.Args[0], "-test.run=^TestStoreWriterProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), storeWriterEnv+"="+path+";"+strconv.Itoa(w))
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, gos = append(cmds, cmd), append(gos, in)
	}
	for _, in := range gos { // all at once
		_, _ = in.Write([]byte{1})
		in.Close()
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("a writer failed: %v\n%s", err, cmd.Stdout)
		}
	}
	entries, err := oauth.OpenStore(path).Entries()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != writers*puts {
		t.Errorf("the store kept %d of %d entries", len(entries), writers*puts)
	}
}

// A store another user owns (written by a run under sudo, say) is refused
// with words that say so and what to do, for reading and for writing.
func TestStoreOwnedByAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give a file to another user")
	}
	const other = 4242
	dir := filepath.Join(t.TempDir(), "mcpeek")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "auth.json")
	if err := os.WriteFile(path, []byte(`{"version":1,"entries":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, other, other); err != nil {
		t.Fatal(err)
	}
	store := oauth.OpenStore(path)
	_, err := store.Entries()
	wantOwnerError(t, "reading", err)
	wantOwnerError(t, "writing", store.Put(&oauth.Entry{Resource: "https://mcp.example"}))

	// A folder of another user's is refused too, before anything is
	// written into it.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, other, other); err != nil {
		t.Fatal(err)
	}
	wantOwnerError(t, "writing into the folder", store.Put(&oauth.Entry{Resource: "https://mcp.example"}))
	if _, err := os.Stat(path); err == nil {
		t.Error("a token was written into another user's folder")
	}
}

func wantOwnerError(t *testing.T, doing string, err error) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), "belongs to another user (uid 4242)") || !strings.Contains(err.Error(), "chown") {
		t.Errorf("%s: err = %v", doing, err)
	}
}
