package leases

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// runners are commands that run the program named next (npx
// chrome-devtools-mcp): the live view names both.
var runners = []string{"node", "npx", "npm", "pnpm", "bunx", "bun", "deno", "uvx", "python", "python3"}

// CommandOf says which command a `wrap --isolate` runs in a world of an
// instance ("" when no lease of this coordinator names the world, or the
// system does not say a process's command line): the wrap's lease names its
// pid, and its command line holds the child's after "--".
func CommandOf(stateDir, instance string, isDefault bool) func(world string) string {
	return func(world string) string {
		files, _ := filepath.Glob(filepath.Join(Dir(stateDir), "*.json"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			var l Lease
			if err != nil || json.Unmarshal(b, &l) != nil || l.Coordinator != os.Getpid() || l.World != world {
				continue
			}
			if l.Instance != instance && (l.Instance != "" || !isDefault) {
				continue
			}
			return childCommand(l.Holder)
		}
		return ""
	}
}

// childCommand is the command wrap (pid) runs after "--": its name, and
// the program's when it is a runner (node, npx, …).
func childCommand(pid int) string {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)) // Linux; elsewhere unknown
	if err != nil {
		return ""
	}
	args := bytes.Split(bytes.TrimRight(raw, "\x00"), []byte{0})
	i := slices.IndexFunc(args, func(a []byte) bool { return string(a) == "--" })
	if i < 0 || i+1 >= len(args) {
		return ""
	}
	name := filepath.Base(string(args[i+1]))
	if slices.Contains(runners, name) {
		for _, a := range args[i+2:] {
			if len(a) > 0 && a[0] != '-' {
				return name + " " + filepath.Base(string(a))
			}
		}
	}
	return name
}
