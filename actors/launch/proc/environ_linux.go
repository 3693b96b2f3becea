package proc

import (
	"bytes"
	"os"
	"strconv"
)

// WithEnv lists the pids of this user's processes whose environment holds
// name=value exactly: every process a launch spawned carries its launch's
// marker, its helpers and their children included, whatever their group.
func WithEnv(name, value string) ([]int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	want := []byte(name + "=" + value)
	self := os.Getpid()
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue // gone, or another user's: never ours
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				out = append(out, pid)
				break
			}
		}
	}
	return out, nil
}
