package watchdog

import (
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/leases"
)

// GuardSpec is what the guard process is told on its command line.
type GuardSpec struct {
	CoordinatorPID int
	StateFile      string // the coordinator's state file ("" for a bridge)
	TempRoot       string // where the coordinator's launches make their directories
}

// Args is the guard's command line after "watchdog".
func (s GuardSpec) Args() []string {
	args := []string{"--coordinator-pid", fmt.Sprint(s.CoordinatorPID), "--temp-root", s.TempRoot}
	if s.StateFile != "" {
		args = append(args, "--state-file", s.StateFile)
	}
	return args
}

// Guard is the guard process's life: it holds what the coordinator tells
// it on pipe until bye (the coordinator stopped in order), or until the pipe
// ends without it: the coordinator died, however. Then it ends every
// browser of a launch not released, whether it was told the pid yet or not,
// removes the launches' directories, the partial downloads and the
// coordinator's state file.
func Guard(pipe io.Reader, spec GuardSpec, sys launch.System, log zerolog.Logger) {
	launches := map[int]message{}
	var folders []message
	bye := readMessages(pipe, func(m message) {
		switch m.Op {
		case opLaunch:
			launches[m.ID] = m
		case opSpawned:
			if l, ok := launches[m.ID]; ok {
				l.Browser = m.Browser
				launches[m.ID] = l
			}
		case opRelease:
			delete(launches, m.ID)
		case opDownloads:
			folders = append(folders, m)
		}
	})
	if bye {
		return
	}
	log.Warn().Int("launches", len(launches)).Msg("the coordinator died: ending its browsers and removing what it left")
	var wg sync.WaitGroup // each launch ends in its own time: the whole must fit in the 2 s a user waits
	for _, l := range launches {
		wg.Add(1)
		go func() { defer wg.Done(); endLaunch(l, sys, log) }()
	}
	wg.Wait()
	sweepTempRoot(spec, log)
	for _, f := range folders {
		clearPartialDownloads(f.Dir, f.Tidy, log)
	}
	if spec.StateFile != "" {
		removeStateOf(spec.StateFile, spec.CoordinatorPID, log)
		leases.RemoveOf(filepath.Dir(spec.StateFile), spec.CoordinatorPID) // the worlds wraps leased ended with it
	}
}
