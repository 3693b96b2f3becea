package watchdog

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// message is one line the coordinator writes to its guard's pipe. Each is
// one write(2) well under PIPE_BUF: once written it is in the kernel's
// buffer, and the guard reads it even if the coordinator dies right after.
type message struct {
	Op opcode `json:"op"`
	ID int    `json:"id,omitempty"` // the launch, numbered by the coordinator
	// launch: what exists before the browser does.
	TempDir     string `json:"temp_dir,omitempty"`
	Profile     string `json:"profile,omitempty"`
	TempProfile bool   `json:"temp_profile,omitempty"`
	Windows     bool   `json:"windows,omitempty"`
	// spawned: how the browser is known.
	Browser *proc.BrowserIdentity `json:"browser,omitempty"`
	// downloads: an instance's download folder; Tidy: removed when empty.
	Dir  string `json:"dir,omitempty"`
	Tidy bool   `json:"tidy,omitempty"`
}

type opcode string

const (
	opLaunch    opcode = "launch"    // a launch, before its spawn
	opSpawned   opcode = "spawned"   // its browser exists (again once ready)
	opRelease   opcode = "release"   // the coordinator handled it itself
	opDownloads opcode = "downloads" // a download folder to clear of partial files
	opBye       opcode = "bye"       // the coordinator stopped in order: nothing to do
)

func (m message) line() []byte {
	b, _ := json.Marshal(m) // plain fields: cannot fail
	return append(b, '\n')
}

// readMessages calls handle for each line until EOF or a read error (the
// coordinator is gone) or bye; it reports whether bye came.
func readMessages(r io.Reader, handle func(message)) (bye bool) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		var m message
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue // not ours to act on; the next line may be
		}
		if m.Op == opBye {
			return true
		}
		handle(m)
	}
	return false
}
