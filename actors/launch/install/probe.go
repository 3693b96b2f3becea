package install

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

// Probe runs the installed browser's --version: a build that lacks system
// libraries (a bare Linux without Chrome's dependencies) fails here with the
// loader's message, which is worth reading before the first launch does.
// On Windows, where --version opens a window, it reads the version directory.
func Probe(ctx context.Context, sys launch.System, exe string) error {
	if runtime.GOOS == "windows" {
		_, err := detect.ReadVersion(ctx, sys, launch.Browser{Path: exe})
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "--version")
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s --version: %w: %s", exe, err, strings.TrimSpace(lastBytes(out, 600)))
	}
	return nil
}

// lastBytes keeps the end of a long output, where the reason usually is.
func lastBytes(b []byte, n int) string {
	if len(b) > n {
		return "…" + string(b[len(b)-n:])
	}
	return string(b)
}
