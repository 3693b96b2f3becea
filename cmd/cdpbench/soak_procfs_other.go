//go:build !linux

package main

import "errors"

// The soak reads /proc: Linux only (main skips it elsewhere).
func processesWithEnvPrefix(string) []int { return nil }
func commandOf(int) string                { return "" }
func containsWord(s, w string) bool       { return false }
func procCounts(int) (threads, fds int)   { return 0, 0 }
func stopPid(int) error                   { return errors.New("SIGSTOP: Linux only") }
func contPid(int) error                   { return errors.New("SIGCONT: Linux only") }

func groupSize(int) int { return 0 }

func pgidOf(int) int { return -1 }
