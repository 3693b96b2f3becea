package state

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// EndedFile remembers the ports of coordinators that were killed (their
// state files are removed by their watchdog or the next reaper), so that a
// coordinator its host starts again takes the same port and the wrapped
// children's URLs work again.
const EndedFile = "ended.json"

// Ended is a killed coordinator's endpoint.
type Ended struct {
	Port    int       `json:"port"`
	PID     int       `json:"pid"`
	PPID    int       `json:"ppid"`
	EndedAt time.Time `json:"ended_at"`
}

// endedKeep bounds the record: a few entries, none older than a day.
const (
	endedMax = 16
	endedTTL = 24 * time.Hour
)

// RecordEnded adds a killed coordinator (its state file s) to dir's record.
// A record another user owns is left alone (an error says so).
func RecordEnded(dir string, s File) error {
	if path := filepath.Join(dir, EndedFile); statErr(path) == nil && !Mine(path) {
		return fmt.Errorf("%s belongs to another user: not ours to change", path)
	}
	return withEndedLock(dir, func() error { return recordEnded(dir, s) })
}

func recordEnded(dir string, s File) error {
	list := readEnded(dir)
	list = slices.DeleteFunc(list, func(e Ended) bool { return e.PID == s.PID || e.Port == s.Port })
	list = append(list, Ended{Port: s.Port, PID: s.PID, PPID: s.PPID, EndedAt: time.Now().UTC()})
	return writeEnded(dir, list)
}

// EndDead removes the state file at path of a coordinator that was killed
// (s, as read from it), keeping its port in the record for the next one.
// Its guard and a new coordinator's reaper may both find it: whoever comes
// second finds it gone and records nothing.
func EndDead(path string, s File) error {
	dir := filepath.Dir(path)
	return withEndedLock(dir, func() error {
		if _, err := os.Lstat(path); err != nil {
			return nil // the other one ended it
		}
		var err error
		if record := filepath.Join(dir, EndedFile); statErr(record) == nil && !Mine(record) {
			err = fmt.Errorf("%s belongs to another user: not ours to change", record)
		} else {
			err = recordEnded(dir, s)
		}
		if rmErr := os.Remove(path); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
			return errors.Join(err, rmErr)
		}
		return err
	})
}

// withEndedLock runs change alone among the processes that change dir's
// record (a dead coordinator's guard recording its port, a new
// coordinator's reaper doing the same and its start taking the port over):
// without it, one could write back a port another had just taken.
func withEndedLock(dir string, change func() error) error {
	unlock, err := lockDir(dir)
	if err != nil {
		return fmt.Errorf("lock the record of ended coordinators: %w", err)
	}
	defer unlock()
	return change()
}

// TakeOverPort binds the port of a killed coordinator when it is free:
// first one started by the same parent (the same AI host restarting its
// coordinator), then the most recent. The port taken leaves the record.
func TakeOverPort(dir string, ppid int, listen func(port int) (net.Listener, error)) (l net.Listener, taken Ended, ok bool) {
	_ = withEndedLock(dir, func() error {
		l, taken, ok = takeOverPort(dir, ppid, listen)
		return nil
	})
	return l, taken, ok
}

func takeOverPort(dir string, ppid int, listen func(port int) (net.Listener, error)) (net.Listener, Ended, bool) {
	list := readEnded(dir)
	order := slices.Clone(list)
	slices.SortStableFunc(order, func(a, b Ended) int {
		if (a.PPID == ppid) != (b.PPID == ppid) {
			if a.PPID == ppid {
				return -1
			}
			return 1
		}
		return b.EndedAt.Compare(a.EndedAt)
	})
	for _, e := range order {
		l, err := listen(e.Port)
		if err != nil {
			continue // taken meanwhile: perhaps free next time
		}
		_ = writeEnded(dir, slices.DeleteFunc(list, func(x Ended) bool { return x.Port == e.Port }))
		return l, e, true
	}
	return nil, Ended{}, false
}

func readEnded(dir string) []Ended {
	path := filepath.Join(dir, EndedFile)
	if !Mine(path) {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var list []Ended
	if json.Unmarshal(data, &list) != nil {
		return nil // a damaged record only loses the takeover
	}
	now := time.Now()
	list = slices.DeleteFunc(list, func(e Ended) bool {
		return e.Port <= 0 || e.Port > 65535 || now.Sub(e.EndedAt) > endedTTL
	})
	return list
}

func writeEnded(dir string, list []Ended) error {
	path := filepath.Join(dir, EndedFile)
	if len(list) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	slices.SortFunc(list, func(a, b Ended) int { return cmp.Compare(b.EndedAt.UnixNano(), a.EndedAt.UnixNano()) })
	list = list[:min(len(list), endedMax)]
	data, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, data)
}
