package proc

import "time"

// GroupWait is how long helpers (renderers, zygote) that outlive a browser
// get to go once their group was killed.
const GroupWait = 2 * time.Second

// EndGroup ends the process group led by pid, which this process may not
// have started (the watchdog and the reaper use it): SIGTERM, up to grace
// for the group to go, then SIGKILL and a last wait.
func EndGroup(pid int, grace time.Duration) {
	_ = SignalGroup(pid, false)
	if WaitGroupGone(pid, grace) {
		return
	}
	_ = SignalGroup(pid, true)
	WaitGroupGone(pid, GroupWait)
}

func WaitGroupGone(pid int, d time.Duration) bool {
	for end := time.Now().Add(d); GroupAlive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			return false
		}
	}
	return true
}

// EndLeftovers kills what is left of the group of pgid once its leader
// exited: helpers (renderers, zygote) may outlive the main process briefly.
func EndLeftovers(pgid int) {
	if GroupAlive(pgid) {
		_ = SignalGroup(pgid, true)
		WaitGroupGone(pgid, GroupWait)
	}
}
