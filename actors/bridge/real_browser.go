package bridge

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

// RealBrowser is the browser the bridge launches for want (a name, a path,
// or "" for the first detected), never this executable itself: installed
// as "chrome", the bridge may be found as one. It must speak CDP, as the
// Chrome it stands in for does.
func RealBrowser(sys launch.System, want string, windows bool) (launch.Browser, error) {
	sys.PreferWindows = sys.PreferWindows || windows
	b, err := detect.Resolve(sys, want)
	if err != nil {
		return b, err
	}
	if err := launch.RequireCDP(b); err != nil {
		return b, err
	}
	self, _ := os.Executable()
	if sameFile(self, b.Path) {
		return b, fmt.Errorf("%s is this bridge, not a browser; set --browser or CDPVISOR_BROWSER to the real one", b.Path)
	}
	return b, nil
}

// sameFile: both paths lead to one file once their symlinks are followed.
func sameFile(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}
