package main

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Issue 27: the Chromium cdpvisor launches listens on no TCP port: no
// process of its tree has a listening socket, so another local user has
// nothing to connect to around the endpoint's peer check (before, it had
// 127.0.0.1:<its --remote-debugging-port=0>, answering anyone). The check
// is shown to see a listening socket on the coordinator, whose endpoint is one.
func TestTheLaunchedChromiumListensOnNoPort(t *testing.T) {
	actortest.AsOtherUser(t)
	s := startServe(t, nil, "--browser", actortest.Chromium(t), "--state-dir", t.TempDir())
	endpointAnswers(t, s.endpoint) // launches the browser
	browsers := s.browsers()
	if len(browsers) != 1 {
		t.Fatalf("browsers %v, want one", browsers)
	}
	tree := append([]int{browsers[0]}, descendants(browsers[0])...)
	if len(tree) < 2 {
		t.Fatalf("the browser's process tree %v: want the browser and its helpers", tree)
	}
	listening := listeningSockets(t)
	if ports := portsOf(t, s.cmd.Process.Pid, listening); len(ports) == 0 {
		t.Fatalf("the coordinator listens on nothing the check sees (its endpoint is %s): the check is blind", s.endpoint)
	}
	for _, pid := range tree {
		for _, port := range portsOf(t, pid, listening) {
			a := actortest.AsOtherUserGet(t, fmt.Sprintf("http://127.0.0.1:%d/json/version", port))
			t.Errorf("browser process %d (%s) listens on port %d; another user's GET /json/version there: %d %.80q",
				pid, actortest.Cmdline(pid), port, a.Status, a.Body)
			if a.Status == http.StatusOK {
				t.Errorf("another local user can drive the browser at port %d", port)
			}
		}
	}
}

// tcpSockets maps the inode of every TCP socket of the machine in state
// (IPv4 and IPv6; "0A" listening, "01" established) to its local and
// remote ports.
func tcpSockets(t *testing.T, state string) map[string][2]int {
	t.Helper()
	out := map[string][2]int{}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(f)
		lines.Scan() // the header
		for lines.Scan() {
			// sl local rem st tx:rx tr:when retrnsmt uid timeout inode
			fields := strings.Fields(lines.Text())
			if len(fields) < 10 || fields[3] != state {
				continue
			}
			out[fields[9]] = [2]int{hexPort(fields[1]), hexPort(fields[2])}
		}
		f.Close()
	}
	return out
}

func hexPort(addr string) int {
	_, hex, _ := strings.Cut(addr, ":")
	port, _ := strconv.ParseInt(hex, 16, 32)
	return int(port)
}

// listeningSockets maps the inode of every listening TCP socket to its port.
func listeningSockets(t *testing.T) map[string]int {
	out := map[string]int{}
	for inode, ports := range tcpSockets(t, "0A") {
		out[inode] = ports[0]
	}
	return out
}

// socketsOf lists the inodes of pid's sockets.
func socketsOf(pid int) []string {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	fds, err := os.ReadDir(dir)
	if err != nil {
		return nil // it ended meanwhile (a helper)
	}
	var inodes []string
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join(dir, fd.Name()))
		if inode, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
			inodes = append(inodes, strings.TrimSuffix(inode, "]"))
		}
	}
	return inodes
}

// portsOf lists the ports pid listens on, by its sockets' inodes.
func portsOf(t *testing.T, pid int, listening map[string]int) []int {
	t.Helper()
	var ports []int
	for _, inode := range socketsOf(pid) {
		if port, ok := listening[inode]; ok {
			ports = append(ports, port)
		}
	}
	return ports
}
