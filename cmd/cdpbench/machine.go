package main

import (
	"context"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// machine is where the figures were taken.
type machine struct {
	NProc          int    `json:"nproc"`
	CPUModel       string `json:"cpu_model,omitempty"`
	MemTotalMB     int64  `json:"mem_total_mb,omitempty"`
	Kernel         string `json:"kernel,omitempty"`
	OS             string `json:"os"`
	Arch           string `json:"arch"`
	GoVersion      string `json:"go_version"`
	Chromium       string `json:"chromium,omitempty"`          // Browser.getVersion product, direct side
	ProxyChromium  string `json:"cdpvisor_chromium,omitempty"` // the same through cdpvisor
	CdpvisorBinary string `json:"cdpvisor_version,omitempty"`  // `cdpvisor version` (--launch)
	BaselineBinary string `json:"baseline_version,omitempty"`  // `cdpvisor version` of --baseline-bin
	// Load averages (1, 5, 15 min) at the start and at the end: the
	// machine is shared, and a loaded one inflates every relay hop.
	LoadStart string `json:"loadavg_start,omitempty"`
	LoadEnd   string `json:"loadavg_end,omitempty"`
}

func collectMachine() machine {
	return machine{
		NProc:      runtime.NumCPU(),
		CPUModel:   cpuModel(),
		MemTotalMB: memTotalMB(),
		Kernel:     kernelRelease(),
		OS:         runtime.GOOS,
		Arch:       runtime.GOARCH,
		GoVersion:  runtime.Version(),
		LoadStart:  loadAvg(),
	}
}

// commandLine runs a short read-only command and returns its trimmed
// output, or "" (commit of the checkout, cdpvisor's version).
func commandLine(dir, name string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
