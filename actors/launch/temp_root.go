package launch

import (
	"os"
	"runtime"
)

// scratchTail is the longest a launch adds to its temporary root before
// the browser's $TMPDIR: "/cdpv-<pid>-<random>/tmp".
const scratchTail = len("/"+TempPrefix+"4194304-4294967295") + len("/tmp")

// TempRoot is where launches make their temporary directories, and so
// where the guard and the start-up reaper look for them: the temp dir,
// unless a launch's $TMPDIR under it would be too long for Chromium's
// socket paths (macOS's /var/folders/… always is). The browser would then
// keep $TMPDIR, and each browser killed would leave its
// org.chromium.Chromium.* there, which nothing removes; /tmp is short.
func TempRoot() string {
	dir := os.TempDir()
	if len(dir)+scratchTail <= maxBrowserTmpDir || runtime.GOOS == "windows" {
		return dir
	}
	if st, err := os.Stat("/tmp"); err == nil && st.IsDir() {
		return "/tmp"
	}
	return dir
}
