package watch

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// dialAsEnv makes the test binary, run as another user, dial the socket
// it names and print what it reads first (or how it ended).
const dialAsEnv = "MCPEEK_WATCH_TEST_DIAL"

func TestMain(m *testing.M) {
	if sock := os.Getenv(dialAsEnv); sock != "" {
		c, err := net.Dial("unix", sock)
		if err != nil {
			fmt.Println("dial:", err)
			os.Exit(0)
		}
		line, err := bufio.NewReader(c).ReadString('\n')
		fmt.Printf("read %q %v\n", line, err)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A program of another user that reaches a proxy's socket (its directory
// opened by mistake) is refused by the kernel's word on who it is, and
// is sent nothing.
func TestAnotherUsersPeerIsRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to run a program as another user (nobody)")
	}
	refused := make(chan error, 1)
	h := start(t, mcpclient.NewWireLog(0, nil), Options{Refused: func(err error) { refused <- err }})
	h.opts.Wire.Note("a secret of the person's traffic")
	// The mistake: the directory and the socket opened to everyone.
	must(t, os.Chmod(filepath.Dir(h.Info().Socket), 0o755))
	must(t, os.Chmod(h.Info().Socket, 0o666))

	self, err := os.Executable()
	must(t, err)
	dir, err := os.MkdirTemp("", "mw-as-")
	must(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	b, err := os.ReadFile(self)
	must(t, err)
	bin := filepath.Join(dir, "watch.test")
	must(t, os.WriteFile(bin, b, 0o755))
	must(t, os.Chmod(dir, 0o755))
	cmd := exec.Command(bin)
	cmd.Env = []string{dialAsEnv + "=" + h.Info().Socket}
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the dial as user 65534: %v: %s", err, out)
	}
	if !strings.HasPrefix(string(out), `read "" EOF`) {
		t.Errorf("user 65534 read %q, want nothing", out)
	}
	if err := within(t, refused); !strings.Contains(err.Error(), "user 65534") {
		t.Errorf("refused with %v, want the peer's uid said", err)
	}
}
