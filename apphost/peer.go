package apphost

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The kernel's table of TCP sockets (/proc/net/tcp and /proc/net/tcp6 on
// Linux) names each socket's owner: the user whose process made it. A
// connection to the app host over loopback has its other end in that same
// table, so the host can tell whose program connected without trusting
// anything the program says. That is what lets the browser be started with
// a URL that holds no secret (see launchURL): the tab is given its token
// only when the connection asking for it is the person's own.

// sockRow is one socket of the kernel's table.
type sockRow struct {
	local, remote netip.AddrPort
	state         uint8 // 0x0A is LISTEN
	uid           int
	inode         uint64 // 0 for a socket no process holds any more
}

const tcpListen = 0x0A

// maxSockLine bounds one line of the table (about 150 bytes each).
const maxSockLine = 4096

// parseSockTable calls row for each socket of a /proc/net/tcp or
// /proc/net/tcp6 table read from r, until row returns false.
func parseSockTable(r io.Reader, row func(sockRow) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 512), maxSockLine)
	first := true
	for sc.Scan() {
		if first { // the heading
			first = false
			continue
		}
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		s, err := parseSockLine(line)
		if err != nil {
			return err
		}
		if !row(s) {
			return nil
		}
	}
	return sc.Err()
}

// parseSockLine reads one line of the table:
//
//	sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
func parseSockLine(line string) (sockRow, error) {
	f := strings.Fields(line)
	if len(f) < 10 {
		return sockRow{}, fmt.Errorf("socket table: a line of %d fields: %.80q", len(f), line)
	}
	var s sockRow
	var err error
	if s.local, err = parseSockAddr(f[1]); err != nil {
		return sockRow{}, err
	}
	if s.remote, err = parseSockAddr(f[2]); err != nil {
		return sockRow{}, err
	}
	st, err := strconv.ParseUint(f[3], 16, 8)
	if err != nil {
		return sockRow{}, fmt.Errorf("socket table: state %.20q", f[3])
	}
	s.state = uint8(st)
	uid, err := strconv.ParseUint(f[7], 10, 32)
	if err != nil {
		return sockRow{}, fmt.Errorf("socket table: uid %.20q", f[7])
	}
	s.uid = int(uid)
	if s.inode, err = strconv.ParseUint(f[9], 10, 64); err != nil {
		return sockRow{}, fmt.Errorf("socket table: inode %.30q", f[9])
	}
	return s, nil
}

// parseSockAddr reads ADDR:PORT as the kernel writes it: the address as
// 32-bit words in hex, each in the machine's byte order (one word for IPv4,
// four for IPv6), the port as a number in hex.
func parseSockAddr(field string) (netip.AddrPort, error) {
	addrText, portText, ok := strings.Cut(field, ":")
	raw, err := hex.DecodeString(addrText)
	if !ok || err != nil || (len(raw) != 4 && len(raw) != 16) {
		return netip.AddrPort{}, fmt.Errorf("socket table: address %.60q", field)
	}
	port, err := strconv.ParseUint(portText, 16, 16)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("socket table: port %.60q", field)
	}
	var b [16]byte
	for i := 0; i < len(raw); i += 4 {
		binary.NativeEndian.PutUint32(b[i:], binary.BigEndian.Uint32(raw[i:]))
	}
	var addr netip.Addr
	if len(raw) == 4 {
		addr = netip.AddrFrom4([4]byte(b[:4]))
	} else {
		addr = netip.AddrFrom16(b)
	}
	return netip.AddrPortFrom(addr, uint16(port)), nil
}

// errNoOwner is a connection whose other end the kernel's table does not
// show held by a process.
var errNoOwner = errors.New("the kernel shows no process holding the connection's other end")

// sockTables are the tables of TCP sockets, IPv4's first.
var sockTables = []string{"tcp", "tcp6"}

// findSock returns the first socket of the tables in dir (a /proc/net)
// that match says is the one. A table that does not exist is passed over
// (a machine without IPv6 has no tcp6), but not both.
func findSock(dir string, match func(sockRow) bool) (sockRow, error) {
	var found *sockRow
	read := 0
	for _, name := range sockTables {
		f, err := os.Open(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return sockRow{}, err
		}
		read++
		err = parseSockTable(f, func(s sockRow) bool {
			if match(s) {
				found = &s
				return false
			}
			return true
		})
		_ = f.Close()
		if err != nil {
			return sockRow{}, err
		}
		if found != nil {
			return *found, nil
		}
	}
	if read == 0 {
		return sockRow{}, fmt.Errorf("no socket table in %s", dir)
	}
	return sockRow{}, errNoOwner
}

// peerUID is the owner of the other end of a loopback TCP connection whose
// ends are ours (the app host's) and peer: the socket whose local address
// is peer's and whose remote address is ours. An IPv4 address matches its
// IPv4-mapped IPv6 form (a dual-stack socket).
func peerUID(dir string, ours, peer netip.AddrPort) (int, error) {
	ours, peer = unmapped(ours), unmapped(peer)
	s, err := findSock(dir, func(s sockRow) bool {
		return unmapped(s.local) == peer && unmapped(s.remote) == ours
	})
	switch {
	case err != nil:
		return 0, err
	case s.inode == 0:
		return 0, errNoOwner
	}
	return s.uid, nil
}

func unmapped(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// connUID is the owner of the other end of c, a connection accepted by the
// app host.
func connUID(dir string, c net.Conn) (int, error) {
	ours, ok1 := c.LocalAddr().(*net.TCPAddr)
	peer, ok2 := c.RemoteAddr().(*net.TCPAddr)
	if !ok1 || !ok2 {
		return 0, errors.New("not a TCP connection")
	}
	return peerUID(dir, ours.AddrPort(), peer.AddrPort())
}

// ownersReadable reports whether the kernel's tables in dir show the
// host's own listening sockets as this user's: then the owner of a
// connection can be found (the tables are there, readable, of this
// network namespace, and in a form this parser reads). Otherwise the host
// launches the browser through a launch file, as on other systems.
func ownersReadable(dir string, listeners []net.Listener) error {
	for _, l := range listeners {
		addr, ok := l.Addr().(*net.TCPAddr)
		if !ok {
			return errors.New("not a TCP listener")
		}
		want := unmapped(addr.AddrPort())
		s, err := findSock(dir, func(s sockRow) bool { return s.state == tcpListen && unmapped(s.local) == want })
		if err != nil {
			return fmt.Errorf("the listener %s: %w", want, err)
		}
		if s.uid != os.Getuid() || s.inode == 0 {
			return fmt.Errorf("the listener %s shows as user %d's, not %d's", want, s.uid, os.Getuid())
		}
	}
	return nil
}
