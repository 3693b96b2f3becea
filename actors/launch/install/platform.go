package install

import "strings"

// cftPlatforms are Chrome for Testing's platform keys for an OS and
// architecture, best first: Windows on ARM takes win-arm64 where the index
// offers it, else the x64 build (which Windows 11 emulates). Linux on ARM
// gets a build only if the index ever lists linux-arm64.
func cftPlatforms(goos, goarch string) []string {
	switch goos + "/" + goarch {
	case "linux/amd64":
		return []string{"linux64"}
	case "linux/arm64":
		return []string{"linux-arm64"}
	case "darwin/arm64":
		return []string{"mac-arm64"}
	case "darwin/amd64":
		return []string{"mac-x64"}
	case "windows/amd64":
		return []string{"win64"}
	case "windows/arm64":
		return []string{"win-arm64", "win64"}
	case "windows/386":
		return []string{"win32"}
	}
	return nil
}

// cftExecutable is the executable's path inside a Chrome for Testing zip of
// product for platform, slash-separated.
func cftExecutable(product, platform string) string {
	top := product + "-" + platform
	switch {
	case product == "chrome" && strings.HasPrefix(platform, "mac"):
		return top + "/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing"
	case strings.HasPrefix(platform, "win"):
		return top + "/" + product + ".exe"
	}
	return top + "/" + product
}

// snapshotPlatform is a Chromium snapshot bucket's folder, the zip in it
// and the executable inside the zip, for an OS and architecture.
type snapshotPlatform struct {
	folder, zip, exe string
}

func snapshotPlatformOf(goos, goarch string) (snapshotPlatform, bool) {
	switch goos + "/" + goarch {
	case "linux/amd64":
		return snapshotPlatform{"Linux_x64", "chrome-linux.zip", "chrome-linux/chrome"}, true
	case "darwin/arm64":
		return snapshotPlatform{"Mac_Arm", "chrome-mac.zip", "chrome-mac/Chromium.app/Contents/MacOS/Chromium"}, true
	case "darwin/amd64":
		return snapshotPlatform{"Mac", "chrome-mac.zip", "chrome-mac/Chromium.app/Contents/MacOS/Chromium"}, true
	case "windows/amd64", "windows/arm64":
		return snapshotPlatform{"Win_x64", "chrome-win.zip", "chrome-win/chrome.exe"}, true
	case "windows/386":
		return snapshotPlatform{"Win", "chrome-win.zip", "chrome-win/chrome.exe"}, true
	}
	return snapshotPlatform{}, false
}
