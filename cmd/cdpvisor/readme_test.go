package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// The README is for the people who use cdpvisor: at most 300 lines, its
// two commands word for word (the first is the one the first-run test
// runs, the second the one .ci/run runs), and every page it and docs/ link
// to exists.
func TestREADMEHoldsTheTwoCommandsAndItsLinksResolve(t *testing.T) {
	root := actortest.RepoRoot()
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n > 300 {
		t.Errorf("README.md has %d lines; the reference belongs in docs/", n)
	}
	run := strings.Join(readmeFirstCommand, " ")
	test := strings.Join(append(readmeFirstCommand[:len(readmeFirstCommand)-1:len(readmeFirstCommand)-1], "test"), " ")
	ci, _ := os.ReadFile(filepath.Join(root, ".ci", "run"))
	for _, cmd := range []string{run, test} {
		if !strings.Contains(string(readme), "\n"+cmd+"\n") {
			t.Errorf("README.md lacks the command %q on a line of its own", cmd)
		}
	}
	if !strings.Contains(string(ci), strings.TrimPrefix(test, "go run ")) {
		t.Errorf(".ci/run does not run the README's test command %q", test)
	}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	link := regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)
	for _, page := range append(pages, filepath.Join(root, "README.md")) {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			if _, err := os.Stat(filepath.Join(filepath.Dir(page), m[1])); err != nil {
				t.Errorf("%s links to %s, which does not exist", filepath.Base(page), m[1])
			}
		}
	}
}
