package detect

import (
	"path"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// wslCandidates are the Windows installs seen through the drive mount:
// Program Files, Program Files (x86) and the Windows user's LocalAppData.
func wslCandidates(sys launch.System) []candidate {
	c := path.Join(wsl.DriveRoot(WSLMachine(sys)), "c")
	roots := []string{path.Join(c, "Program Files"), path.Join(c, "Program Files (x86)")}
	roots = append(roots, WindowsLocalAppData(sys, c)...)
	var list []candidate
	for _, root := range roots {
		for _, exe := range windowsExes {
			exe.Source, exe.Windows = SourceSystem, true
			exe.Path = path.Join(root, strings.ReplaceAll(exe.Path, `\`, "/"))
			list = append(list, exe)
		}
	}
	return list
}

// isExe reports whether p names a Windows program.
func isExe(p string) bool { return strings.HasSuffix(strings.ToLower(p), ".exe") }
