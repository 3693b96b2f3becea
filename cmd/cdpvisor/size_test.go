package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Package main holds flags, help and the edges' wording, no more: at most
// 2000 lines of non-test Go. Logic goes to the actors/ packages; the
// packages under internal/ (the MCP server, wrap's environment) have jobs
// of their own and are not counted.
func TestPackageMainHoldsOnlyTheEdges(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += strings.Count(string(data), "\n")
	}
	if lines > 2000 {
		t.Errorf("cmd/cdpvisor has %d lines of non-test Go, more than 2000: move what is not flags, help or an edge's wording into actors/", lines)
	}
}
