// Package state is how coordinators are found: the state files a running
// coordinator publishes (and the StateActor that owns them), its health
// answer, discovery for wrap and the bridge, and the status of them all.
package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// File is what a running coordinator publishes so that `wrap` and
// `status` can find it. The seed's well-known file holds port and pid; the
// rest tells live coordinators apart.
type File struct {
	Port      int       `json:"port"`
	PID       int       `json:"pid"`
	PPID      int       `json:"ppid"`
	StartedAt time.Time `json:"started_at"`
	Version   string    `json:"version"`
	Endpoint  string    `json:"endpoint"`
	WS        string    `json:"ws"`
	// Protocol is what the default endpoint serves: "cdp", or "bidi" for
	// Firefox (see Instance.Protocol).
	Protocol string `json:"protocol,omitempty"`
	// Instances lists every instance's endpoint, the default one first.
	Instances []Instance `json:"instances,omitempty"`
}

// Instance is one instance's stable endpoint in a state file.
type Instance struct {
	ID       string `json:"id"`
	Port     int    `json:"port"`
	Endpoint string `json:"endpoint"`
	WS       string `json:"ws"`
	// Protocol is what the endpoint serves: "cdp", or "bidi" for a
	// Firefox instance (its WS is then the BiDi socket, /session). Older
	// coordinators left it out: ProtocolOf tells from WS.
	Protocol string `json:"protocol,omitempty"`
	// DownloadDir is where its downloads land.
	DownloadDir string `json:"download_dir,omitempty"`
}

// PointerFile names the file that points at the most recently started
// live coordinator.
const PointerFile = "state.json"

// FileName is a coordinator's own state file in dir.
func FileName(dir string, pid int) string {
	return filepath.Join(dir, fmt.Sprintf("coordinator-%d.json", pid))
}

// WriteFileAtomic writes data to path through a temporary file and a
// rename, so readers never see a half-written file.
func WriteFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// Read reads and checks a state file; a malformed or implausible
// one is an error that names the file, so callers can skip it.
func Read(path string) (File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return File{}, err
	}
	return Parse(path, data)
}

// Parse decodes and validates state file content.
func Parse(path string, data []byte) (File, error) {
	var s File
	if err := json.Unmarshal(data, &s); err != nil {
		return File{}, fmt.Errorf("state file %s is not valid JSON (remove it if no coordinator runs): %w", path, err)
	}
	switch {
	case s.Port <= 0 || s.Port > 65535:
		return File{}, fmt.Errorf("state file %s has no valid port (%d)", path, s.Port)
	case s.PID <= 0:
		return File{}, fmt.Errorf("state file %s has no valid pid (%d)", path, s.PID)
	}
	if s.Endpoint == "" {
		s.Endpoint = fmt.Sprintf("http://127.0.0.1:%d", s.Port)
	}
	if s.WS == "" || !strings.HasPrefix(s.WS, "ws://") {
		s.WS = fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser", s.Port)
	}
	return s, nil
}
