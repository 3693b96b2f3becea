//go:build !linux

package main

import "errors"

const havePSS = false

var errNoProcfs = errors.New("proportional memory needs /proc (Linux)")

func procTable() (map[int]int, error) { return nil, errNoProcfs }

func readRollup(pid int) (rollup, error) { return rollup{}, errNoProcfs }

func cmdlineOf(pid int) []string { return nil }

func exeOf(pid int) string { return "" }

func processesWithEnv(kv string) []int { return nil }

func pidsWithExe(exe string) []int { return nil }

func uniqueFileKB(pids []int) (int64, bool) { return 0, false }
