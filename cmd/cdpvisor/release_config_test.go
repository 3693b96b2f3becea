package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Every release archive GoReleaser makes carries the LICENSE (Apache-2.0
// asks that it travel with the binary) and the README, as the npm packages
// do (TestNPMPackagesInstallOfflineAndRun). A snapshot build shows it:
// tar tzf dist/cdpvisor_*_linux_amd64.tar.gz lists LICENSE, README.md,
// cdpvisor.
func TestReleaseArchivesShipTheLicense(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(actortest.RepoRoot(), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, archives, ok := strings.Cut(string(data), "\narchives:\n")
	if !ok {
		t.Fatal(".goreleaser.yaml has no archives")
	}
	archives, _, _ = strings.Cut(archives, "\n\n") // up to the next section
	lists := regexp.MustCompile(`(?m)^\s+files: \[([^\]]*)\]`).FindAllStringSubmatch(archives, -1)
	if len(lists) == 0 || len(lists) != strings.Count(archives, "- id:") {
		t.Fatalf("each archive wants a files list; .goreleaser.yaml's archives:\n%s", archives)
	}
	for _, l := range lists {
		files := strings.Split(strings.ReplaceAll(l[1], " ", ""), ",")
		if !slices.Contains(files, "LICENSE") || !slices.Contains(files, "README.md") {
			t.Errorf("an archive ships %v: want LICENSE and README.md", files)
		}
	}
}
