package detect

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// versionTimeout bounds ReadVersion: a wedged browser must not stall startup.
const versionTimeout = 3 * time.Second

// maxVersionOutput caps what we keep of --version output.
const maxVersionOutput = 4 << 10

// windowsVersionDir matches the "131.0.6778.85" directory that Windows
// installers put next to the executable.
var windowsVersionDir = regexp.MustCompile(`^\d+\.\d+\.\d+\.\d+$`)

// ReadVersion returns b's version without opening a browser window. A
// Firefox's is in the application.ini of its install, on every OS. On
// Windows, where "chrome.exe --version" opens a window, it reads the
// versioned directory next to the executable; elsewhere it runs
// "<path> --version".
func ReadVersion(ctx context.Context, sys launch.System, b launch.Browser) (string, error) {
	sys = sys.WithDefaults()
	if b.Type == launch.Firefox {
		if build, ok := firefoxInstall(sys, b.Path); ok {
			return build.version, nil
		}
		if sys.GOOS == "windows" {
			return "", fmt.Errorf("read version of %s: no application.ini beside it", b.Path)
		}
	}
	if sys.GOOS == "windows" {
		return readWindowsVersion(sys, b.Path, `\`)
	}
	if b.Windows { // through the WSL drive mount; running it would open a window
		return readWindowsVersion(sys, b.Path, "/")
	}
	if !sys.Exists(b.Path) {
		return "", fmt.Errorf("read version of %s: not an executable file", b.Path)
	}
	return runVersion(ctx, b.Path)
}

// runVersion runs "<path> --version" with a deadline and parses stdout.
// Stderr is discarded: Debian's /usr/bin/chromium wrapper prints shell
// warnings there.
func runVersion(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	var out cappedBuffer
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Stdout = &out
	// In its own process group, so a deadline ends a wrapper script's
	// children too (a hanging `sleep` would otherwise outlive the probe).
	cmd.SysProcAttr = proc.GroupProcAttr()
	cmd.Cancel = func() error { return proc.SignalGroup(cmd.Process.Pid, true) }
	// A wrapper script's children can keep stdout open after the kill;
	// stop waiting for them shortly after.
	cmd.WaitDelay = 500 * time.Millisecond
	err := cmd.Run()
	if ctxErr := ctx.Err(); ctxErr != nil {
		return "", fmt.Errorf("read version of %s: %w", path, ctxErr)
	}
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		return "", fmt.Errorf("read version of %s: %w", path, err)
	}
	v := launch.ParseVersion(string(out.buf))
	if v == "" {
		return "", fmt.Errorf("read version of %s: no version number in %q", path, strings.TrimSpace(string(out.buf)))
	}
	return v, nil
}

// readWindowsVersion picks the highest versioned directory beside exe.
func readWindowsVersion(sys launch.System, exe, sep string) (string, error) {
	dir := dirName("windows", exe)
	matches, err := sys.Glob(dir + sep + `*.*.*.*`)
	if err != nil {
		return "", fmt.Errorf("read version of %s: %w", exe, err)
	}
	best := ""
	for _, m := range matches {
		name := baseName("windows", m)
		if windowsVersionDir.MatchString(name) && (best == "" || compareVersions(name, best) > 0) {
			best = name
		}
	}
	if best == "" {
		return "", fmt.Errorf("read version of %s: no version directory in %s", exe, dir)
	}
	return best, nil
}

// compareVersions orders dotted numeric versions ("131.0.10" > "131.0.9").
func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// cappedBuffer keeps the first maxVersionOutput bytes and swallows the rest,
// so a chatty binary neither grows memory nor dies of a broken pipe.
type cappedBuffer struct{ buf []byte }

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := maxVersionOutput - len(c.buf); room > 0 {
		c.buf = append(c.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
