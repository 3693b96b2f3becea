package chrome

import "time"

// EndGroup ends the process group led by pid, which this process may not
// have started (the watchdog and the reaper use it): SIGTERM, up to grace
// for the group to go, then SIGKILL and a last wait.
func EndGroup(pid int, grace time.Duration) {
	_ = endGroup(pid, false)
	if waitGroupGone(pid, grace) {
		return
	}
	_ = endGroup(pid, true)
	waitGroupGone(pid, groupWait)
}

func waitGroupGone(pid int, d time.Duration) bool {
	for end := time.Now().Add(d); groupAlive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			return false
		}
	}
	return true
}
