package state

import (
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// ReportPath is the health report of a coordinator, on every endpoint:
// for people and monitors (HealthPath is for discovery).
const ReportPath = "/health"

// Report statuses, of an instance and of the whole coordinator.
const (
	StatusOK       = "ok"       // a browser runs
	StatusIdle     = "idle"     // no browser runs, and nothing went wrong: the next demand launches one
	StatusStarting = "starting" // a launch is under way
	StatusStopping = "stopping" // a planned stop is under way
	StatusDegraded = "degraded" // no browser runs and the last one failed to launch or hung (503)
)

// Report is the answer on ReportPath.
type Report struct {
	Status    string           `json:"status"`
	Error     string           `json:"error,omitempty"` // why it is degraded
	PID       int              `json:"pid"`             // the coordinator's
	Instances []InstanceReport `json:"instances"`
}

// InstanceReport is one instance in a Report.
type InstanceReport struct {
	ID              string              `json:"id"`
	Endpoint        string              `json:"endpoint"`
	Status          string              `json:"status"`
	State           string              `json:"state"` // the browser machine's
	Pid             int                 `json:"pid,omitempty"`
	WindowsPid      int                 `json:"windows_pid,omitempty"` // a Windows browser's (inside WSL)
	UptimeSeconds   float64             `json:"uptime_seconds,omitempty"`
	Restarts        int                 `json:"restarts"`
	MemoryBytes     int64               `json:"memory_bytes,omitempty"` // resident, the browser's whole process tree
	Clients         int                 `json:"clients"`
	LastExit        *browser.ExitRecord `json:"last_exit,omitempty"`
	LastLaunchError string              `json:"last_launch_error,omitempty"`
	Error           string              `json:"error,omitempty"`
	DownloadDir     string              `json:"download_dir,omitempty"` // where its downloads land
}

// StatusOf says how an instance is, from its browser's status.
func StatusOf(st browser.Status) (status, problem string) {
	switch st.State {
	case "running":
		return StatusOK, ""
	case "launching":
		return StatusStarting, ""
	case "stopping":
		return StatusStopping, ""
	}
	switch {
	case st.LastLaunchError != "":
		return StatusDegraded, "the last launch failed: " + st.LastLaunchError
	case st.LastExit != nil && st.LastExit.Cause == browser.CauseHung:
		return StatusDegraded, "the last browser hung and was killed"
	}
	return StatusIdle, ""
}

// Summarize sets the report's status from its instances': degraded if any
// is (with their errors), else starting, else ok if a browser runs, else idle.
func (r *Report) Summarize() {
	var problems []string
	has := map[string]bool{}
	for _, i := range r.Instances {
		has[i.Status] = true
		if i.Error != "" {
			problems = append(problems, i.ID+": "+i.Error)
		}
	}
	switch {
	case has[StatusDegraded]:
		r.Status, r.Error = StatusDegraded, strings.Join(problems, "; ")
	case has[StatusStarting]:
		r.Status = StatusStarting
	case has[StatusOK]:
		r.Status = StatusOK
	case has[StatusStopping]:
		r.Status = StatusStopping
	default:
		r.Status = StatusIdle
	}
}

// NewInstanceReport describes one instance from its browser's status and
// its endpoint's client count.
func NewInstanceReport(id, endpoint string, st browser.Status, clients int) InstanceReport {
	r := InstanceReport{
		ID: id, Endpoint: endpoint, State: st.State, Pid: st.Pid, WindowsPid: st.WindowsPid, Restarts: st.Restarts, Clients: clients,
		LastExit: st.LastExit, LastLaunchError: st.LastLaunchError,
	}
	r.Status, r.Error = StatusOf(st)
	if st.Running() {
		r.UptimeSeconds = time.Since(*st.StartedAt).Round(time.Millisecond).Seconds()
	}
	if st.StartedAt != nil && st.Pid != 0 { // a Windows browser's memory is not Linux's to read
		r.MemoryBytes, _ = proc.GroupRSS(st.Pid)
	}
	return r
}
