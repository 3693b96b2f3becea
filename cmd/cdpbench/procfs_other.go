//go:build !linux

package main

import "errors"

type procMem struct {
	RSSkB int64 `json:"rss_kb"`
	HWMkB int64 `json:"hwm_kb"`
}

func readProcMem(pid int) (procMem, error) {
	return procMem{}, errors.New("resident memory needs /proc (Linux)")
}

func procCPUSeconds(pid int) (float64, error) {
	return 0, errors.New("a process's CPU time needs /proc (Linux)")
}

func cpuModel() string { return "" }

func memTotalMB() int64 { return 0 }

func kernelRelease() string { return "" }

func loadAvg() string { return "" }

func processesMatching(words ...string) []int { return nil }

const haveProcfs = false
