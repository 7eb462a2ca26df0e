package watch

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpeek/mcpeek/internal/safefile"
)

// List returns the proxies running with a socket in dir ("" is [Dir]),
// oldest first, removing the sockets and info of those no longer running.
func List(dir string) ([]Info, error) {
	dir, err := useDir(dir)
	if err != nil {
		return nil, err
	}
	return listIn(dir), nil
}

func useDir(dir string) (string, error) {
	if dir == "" {
		return Dir()
	}
	return dir, CheckDir(dir)
}

// listIn reads the info files of dir, removing those of dead proxies.
func listIn(dir string) []Info {
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var out []Info
	for _, name := range names {
		pid, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(name), ".json"))
		if err != nil {
			continue
		}
		if !alive(pid) {
			removeProxy(dir, pid)
			continue
		}
		b, err := safefile.ReadAtMost(name, 64<<10)
		var info Info
		if err != nil || json.Unmarshal(b, &info) != nil || info.PID != pid {
			continue
		}
		info.Socket = filepath.Join(dir, strconv.Itoa(pid)+".sock")
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b Info) int { return a.Started.Compare(b.Started) })
	return out
}

// removeStale removes the sockets, info and URL notes of proxies no
// longer running.
func removeStale(dir string) {
	socks, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
	for _, s := range socks {
		if pid, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(s), ".sock")); err == nil && !alive(pid) {
			removeProxy(dir, pid)
		}
	}
	listIn(dir)
}

// removeProxy removes what a dead proxy left: its socket, its info and
// the URL notes (<pid>-open-N.txt) a proxy removes only when it ends
// cleanly; their URLs hold tokens.
func removeProxy(dir string, pid int) {
	_ = os.Remove(filepath.Join(dir, strconv.Itoa(pid)+".sock"))
	_ = os.Remove(filepath.Join(dir, strconv.Itoa(pid)+".json"))
	notes, _ := filepath.Glob(filepath.Join(dir, strconv.Itoa(pid)+"-open-*.txt"))
	for _, n := range notes {
		_ = os.Remove(n)
	}
}

// Find picks the proxy a watcher names among those listed: by its name,
// its pid or a part of its server; "" is every one.
func Find(all []Info, name string) ([]Info, error) {
	if name == "" {
		return all, nil
	}
	var out []Info
	for _, i := range all {
		if i.Name == name || strconv.Itoa(i.PID) == name {
			out = append(out, i)
		}
	}
	if len(out) == 0 {
		for _, i := range all {
			if strings.Contains(i.Server, name) {
				out = append(out, i)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no running proxy of yours is called %q (mcpeek watch --list shows them)", name)
	}
	return out, nil
}

// dial connects to the proxy info describes and checks that it runs as
// the current user.
func dial(ctx context.Context, info Info, check func(net.Conn) error) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", info.Socket)
	if err != nil {
		return nil, fmt.Errorf("attach to the proxy %d: %w", info.PID, err)
	}
	if check == nil {
		check = checkPeer
	}
	if err := check(c); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("attach to the proxy %d: %w", info.PID, err)
	}
	return c, nil
}
