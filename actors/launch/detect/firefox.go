package detect

import "github.com/cdpvisor/cdpvisor/actors/launch"

// Where Firefox builds live. Stable and ESR share their install locations
// on macOS and Windows (one replaces the other), so there an ESR is listed
// as stable; on Linux the distributions name them apart.

// linuxFirefoxPaths: the commands in /usr/bin of Mozilla's APT repository
// (firefox, firefox-devedition, firefox-nightly), Debian (firefox-esr),
// Fedora and Arch (firefox-developer-edition), Mozilla's tarball unpacked
// in /opt, and snap. The binaries behind them in /usr/lib are left out, as
// for Chromium: the /usr/bin wrapper scripts set up their environment.
var linuxFirefoxPaths = []candidate{
	sysAt(launch.Firefox, ChannelStable, "/usr/bin/firefox"),
	sysAt(launch.Firefox, ChannelStable, "/opt/firefox/firefox"),
	sysAt(launch.Firefox, ChannelStable, "/snap/bin/firefox"),
	sysAt(launch.Firefox, ChannelESR, "/usr/bin/firefox-esr"),
	sysAt(launch.Firefox, ChannelDevEd, "/usr/bin/firefox-devedition"),
	sysAt(launch.Firefox, ChannelDevEd, "/usr/bin/firefox-developer-edition"),
	sysAt(launch.Firefox, ChannelNightly, "/usr/bin/firefox-nightly"),
}

// linuxFirefoxCommands find Firefox outside the fixed places (Nix,
// /usr/local, a custom build) through $PATH.
var linuxFirefoxCommands = []candidate{
	onPATH(launch.Firefox, ChannelStable, "firefox"),
	onPATH(launch.Firefox, ChannelESR, "firefox-esr"),
	onPATH(launch.Firefox, ChannelDevEd, "firefox-devedition"),
	onPATH(launch.Firefox, ChannelDevEd, "firefox-developer-edition"),
	onPATH(launch.Firefox, ChannelNightly, "firefox-nightly"),
}

// macFirefoxApps: every bundle keeps its executable as Contents/MacOS/firefox.
var macFirefoxApps = []macApp{
	{launch.Firefox, ChannelStable, "Firefox.app", "firefox"},
	{launch.Firefox, ChannelDevEd, "Firefox Developer Edition.app", "firefox"},
	{launch.Firefox, ChannelNightly, "Firefox Nightly.app", "firefox"},
}

// windowsFirefoxExes are relative to each of windowsRoots (per-user
// installs go to %LOCALAPPDATA%).
var windowsFirefoxExes = []candidate{
	{Type: launch.Firefox, Channel: ChannelStable, Path: `Mozilla Firefox\firefox.exe`},
	{Type: launch.Firefox, Channel: ChannelDevEd, Path: `Firefox Developer Edition\firefox.exe`},
	{Type: launch.Firefox, Channel: ChannelNightly, Path: `Firefox Nightly\firefox.exe`},
}

// firefoxProductName is what Mozilla calls each channel's build.
func firefoxProductName(channel string) string {
	switch channel {
	case ChannelESR:
		return "Firefox ESR"
	case ChannelBeta:
		return "Firefox Beta"
	case ChannelDevEd:
		return "Firefox Developer Edition"
	case ChannelNightly:
		return "Firefox Nightly"
	}
	return "Firefox"
}
