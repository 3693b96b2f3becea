package detect

import "strings"

// productFirefox is Puppeteer's directory of Firefox builds
// (`npx @puppeteer/browsers install firefox@stable`).
const productFirefox = "firefox"

// puppeteerFirefoxChannel reads Puppeteer's "<platform>-<channel>_<version>"
// directory names ("linux-stable_129.0", "mac_arm-esr_128.1.0esr"); builds
// from before channels were named are Nightlies ("linux-131.0a1").
func puppeteerFirefoxChannel(dir string) string {
	_, build, _ := strings.Cut(dir, "-")
	channel, _, ok := strings.Cut(build, "_")
	if !ok {
		return ChannelNightly
	}
	switch channel {
	case "stable":
		return ChannelStable
	case "esr":
		return ChannelESR
	case "beta":
		return ChannelBeta
	case "devedition":
		return ChannelDevEd
	}
	return ChannelNightly
}

// puppeteerFirefoxExes are the executables of Puppeteer's Firefox builds:
// the release channels unpack to core\ on Windows and Firefox.app on
// macOS; Nightly to firefox\ and Firefox Nightly.app.
func puppeteerFirefoxExes(goos string) []string {
	switch goos {
	case "windows":
		return []string{`core\firefox.exe`, `firefox\firefox.exe`}
	case "darwin":
		return []string{"Firefox.app/Contents/MacOS/firefox", "Firefox Nightly.app/Contents/MacOS/firefox"}
	}
	return []string{"firefox/firefox"}
}
