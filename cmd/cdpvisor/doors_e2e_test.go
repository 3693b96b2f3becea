package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Issue 47, the doors of a guarded world out to the machine, end to end on
// Debian's Chromium. Each of Puppeteer (doors_puppeteer.mjs), Playwright's
// connectOverCDP (doors_playwright.mjs) and chromedp (chromedp_doors) on
// the own port of a world opened with --allow-host A tries every door
// (doors_e2e_rig_test.go names them): the client's navigations to a local
// secret file, its views and the browser's own pages, Target.createTarget,
// Network.loadNetworkResource, Page.navigateToHistoryEntry of a file entry
// the owner planted, DOM.setFileInputFiles, the raw protocol; A's page's
// own tries (an iframe, a data: page's iframe, window.open, a popup,
// location, history.back, a service worker's fetch); the world port's
// /json/new. Every client request is refused naming its rule, each CDP
// one journalled as a denial; nothing any client read holds the file's marker;
// no page of the world is left at a file or a browser page. A file of the
// world's uploads folder may be handed to a page; a download with a folder
// of the client's own lands in the world's folder, Playwright's too (it
// sets its own while it connects, and still connects). The controls: the
// same Puppeteer client on an unguarded world's port and on the whole
// endpoint reads the file (the raw protocol is refused in every world);
// a world opened with --allow-file DIR may hand a page DIR's files.
// Nothing is left once the coordinator stops.
func TestGuardedWorldDoorsWithRealClients(t *testing.T) {
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	r := newDoorsRig(t, chromium)
	actortest.GoClient(t, "chromedp_doors") // built before the browser starts
	const timeout = 3 * time.Minute
	args := func(endpoint string, more ...string) []string {
		return append([]string{endpoint, r.site, r.secret, r.marker, "--whole=" + r.s.endpoint}, more...)
	}
	clients := []struct {
		name string
		run  func(t *testing.T, endpoint, upload, own string) doorsReport
	}{
		{"puppeteer", func(t *testing.T, endpoint, upload, own string) doorsReport {
			out, err := actortest.NodeScript(t, timeout, "doors_puppeteer.mjs", args(endpoint, "--upload="+upload, "--downloads="+own)...)
			return parseDoors(t, "doors_puppeteer.mjs", out, err)
		}},
		{"playwright", func(t *testing.T, endpoint, upload, _ string) doorsReport {
			out, err := actortest.NodeScript(t, timeout, "doors_playwright.mjs", args(endpoint, "--upload="+upload)...)
			return parseDoors(t, "doors_playwright.mjs", out, err)
		}},
		{"chromedp", func(t *testing.T, endpoint, upload, own string) doorsReport {
			out, err := runChromedpDoors(t, args(endpoint, "--upload="+upload, "--downloads="+own)...)
			return parseDoors(t, "chromedp_doors", out, err)
		}},
	}

	// One client after the other, each in a world of its own (their pages,
	// journals and folders apart). Not at once: a page's window.open in one
	// world then hung, now and then, while Puppeteer opened popups and
	// frames in another (chromedp_doors beside doors_puppeteer.mjs: the
	// popup stays at "" and its opener's Runtime.evaluate never answers),
	// a trouble of the wall between worlds, not of the doors.
	for _, c := range clients {
		t.Run("guarded "+c.name, func(t *testing.T) {
			world := "guarded-" + c.name
			endpoint := r.openWorld(t, world, "--allow-host", r.host)
			upload, uploaded := r.uploadFile(t, world)
			own := t.TempDir()
			rep := c.run(t, endpoint, upload, own)
			logDoors(t, c.name+" in guarded world "+world, rep)
			r.checkGuarded(t, world, rep, uploaded)
			r.checkDownloads(t, c.name, world, rep, own)
			r.checkJournal(t, world, rep)
			r.checkPagesLeft(t, world, endpoint, rep)
		})
	}

	// The controls: the doors are the guarded world's, not broken navigation.
	t.Run("unguarded world", func(t *testing.T) {
		endpoint := r.openWorld(t, "open")
		only := "--only=goto file,DOM.setFileInputFiles secret," + strings.Join(rawDoors, ",")
		out, err := actortest.NodeScript(t, timeout, "doors_puppeteer.mjs", endpoint, r.site, r.secret, r.marker, only)
		rep := parseDoors(t, "doors_puppeteer.mjs", out, err)
		logDoors(t, "puppeteer in unguarded world open", rep)
		for _, door := range []string{"goto file", "DOM.setFileInputFiles secret"} {
			if d := rep.Doors[door]; d.Result != "ok" || !d.Leak {
				t.Errorf("%s in an unguarded world: %s %q, marker read %v; want the file read, as before issue 47", door, d.Result, d.Error, d.Leak)
			}
		}
		r.checkRefused(t, "open", rep, rawDoors, ruleRaw)
		for _, e := range r.denials(t, "open", len(rawDoors)) {
			if e.Note != ruleRaw {
				t.Errorf("the unguarded world journalled a denial %+v", e)
			}
		}
	})
	t.Run("whole endpoint", func(t *testing.T) {
		out, err := actortest.NodeScript(t, timeout, "doors_puppeteer.mjs", r.s.endpoint, r.site, r.secret, r.marker, "--only=goto file")
		rep := parseDoors(t, "doors_puppeteer.mjs", out, err)
		logDoors(t, "puppeteer on the whole endpoint", rep)
		if d := rep.Doors["goto file"]; d.Result != "ok" || !d.Leak {
			t.Errorf("goto file on the whole endpoint: %s %q, marker read %v; want the file read", d.Result, d.Error, d.Leak)
		}
	})
	t.Run("allow-file", func(t *testing.T) {
		if !allowFileFlagLanded(t) {
			t.Skip("world open has no --allow-file yet (issue 47): the assertion waits for it")
		}
		dir := t.TempDir()
		allowed := filepath.Join(dir, "allowed.txt")
		if err := os.WriteFile(allowed, []byte("upload-ok-allowed"), 0o600); err != nil {
			t.Fatal(err)
		}
		endpoint := r.openWorld(t, "allowfile", "--allow-host", r.host, "--allow-file", dir)
		out, err := actortest.NodeScript(t, timeout, "doors_puppeteer.mjs", endpoint, r.site, r.secret, r.marker,
			"--upload="+allowed, "--only=DOM.setFileInputFiles secret,DOM.setFileInputFiles uploads")
		rep := parseDoors(t, "doors_puppeteer.mjs", out, err)
		logDoors(t, "puppeteer in world allowfile", rep)
		r.checkRefused(t, "allowfile", rep, []string{"DOM.setFileInputFiles secret"}, ruleMachine)
		if d := rep.Doors["DOM.setFileInputFiles uploads"]; d.Result != "ok" || !strings.Contains(d.Read, "allowed.txt: upload-ok-allowed") {
			t.Errorf("a file of --allow-file's folder: %s %q %q; want it handed to the page", d.Result, d.Error, d.Read)
		}
	})

	// Nothing left: the browser's processes go with the coordinator, and
	// no temporary profile stays (the package's leak check sees the rest).
	browsers := r.s.browsers()
	if err := r.s.stop(t); err != nil {
		t.Errorf("serve: %v", err)
	}
	if !eventually(10*time.Second, func() bool {
		for _, pid := range browsers {
			if actortest.Alive(pid) {
				return false
			}
		}
		return true
	}) {
		t.Errorf("browser processes %v outlived the coordinator", browsers)
	}
	if left := actortest.LeftoverFiles(os.TempDir()); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// checkGuarded: every door of a guarded world's client shut.
func (r *doorsRig) checkGuarded(t *testing.T, world string, rep doorsReport, uploaded string) {
	t.Helper()
	r.checkRefused(t, world, rep, machineDoors, ruleMachine)
	r.checkRefused(t, world, rep, rawDoors, ruleRaw)
	r.checkRefused(t, world, rep, httpDoors, ruleMachine)
	for _, door := range otherDoors {
		d, ok := rep.Doors[door]
		switch {
		case !ok:
			t.Errorf("%s: the client did not try %q", world, door)
		case d.Result != "ok": // the try itself ran; what it got is judged below
			t.Errorf("%s: %q did not run: %s %q", world, door, d.Result, d.Error)
		case door == "window.open file" && !strings.Contains(d.Read, "; opened "+r.site+"#opened"):
			t.Errorf("%s: window.open of A itself did not open (%q): the file's refusal proves nothing", world, d.Read)
		}
	}
	// How Chromium itself shuts what a web page asks (measured on 148 with
	// the three clients): the tries ran, and were refused.
	for _, door := range []string{"iframe file", "data: page iframe file", "data: iframe in A with iframe file",
		"window.open file", "popup target=_blank file", "location.href file"} {
		if d := rep.Doors[door]; !strings.Contains(strings.Join(d.Console, "\n"), "Not allowed to load local resource: file://") {
			t.Errorf("%s: %q: the page logged %q, want Chromium's \"Not allowed to load local resource\"", world, door, d.Console)
		}
	}
	if d := rep.Doors["service worker fetch file"]; !strings.Contains(d.Read, "failed: TypeError: Failed to fetch") {
		t.Errorf("%s: a service worker's fetch of the file: %s %q %q, want Chromium's \"Failed to fetch\"", world, d.Result, d.Error, d.Read)
	}
	for door, d := range rep.Doors {
		if d.Leak && door != "client upload secret" {
			t.Errorf("%s: %q: the client read the secret file's text (%s %q, read %.200q)", world, door, d.Result, d.Error, d.Read)
		}
		for _, u := range d.URLs {
			if machineURL(u) {
				t.Errorf("%s: after %q a page or frame of the world is at %s", world, door, u)
			}
		}
	}
	if d := rep.Doors["DOM.setFileInputFiles uploads"]; d.Result != "ok" || !strings.Contains(d.Read, uploaded) {
		t.Errorf("%s: a file of the world's uploads folder: %s %q, the input holds %q; want it handed to the page", world, d.Result, d.Error, d.Read)
	}
	if d, ok := rep.Doors["client upload secret"]; ok {
		// Playwright's setInputFiles over connectOverCDP reads the file in the
		// client's process and hands the page its bytes (measured with
		// playwright-core 1.65: no DOM.setFileInputFiles, no path the wall
		// could judge): the client, not the browser, touches the file.
		// Reported, not asserted: no door of the world's.
		t.Logf("NOTE %s: Playwright's setInputFiles of the secret: %s, marker in the page %v (the client reads the file itself)", world, d.Result, d.Leak)
	}
}

// checkRefused: each door answered an error of the wall naming the world
// and rule (a CDP error; /json/new's 403).
func (r *doorsRig) checkRefused(t *testing.T, world string, rep doorsReport, doors []string, rule string) {
	t.Helper()
	for _, door := range doors {
		d, ok := rep.Doors[door]
		if !ok {
			t.Errorf("%s: the client did not try %q", world, door)
			continue
		}
		if d.Result != "refused" || !strings.Contains(d.Error, `is refused in world "`+world+`"`) || !strings.Contains(d.Error, "(rule: "+rule+")") {
			t.Errorf("%s: %q was not refused by the wall (rule: %s): %s, error %q, read %.200q", world, door, rule, d.Result, d.Error, d.Read)
		}
	}
}

// checkDownloads: the client's download lands in the world's folder, not
// in the folder it chose (Puppeteer, chromedp: Browser.setDownloadBehavior,
// then Page.setDownloadBehavior; Playwright: its artifacts folder, set while
// it connects).
func (r *doorsRig) checkDownloads(t *testing.T, client, world string, rep doorsReport, own string) {
	t.Helper()
	landed := filesIn(t, r.folder(world))
	if client == "playwright" {
		d := rep.Download
		if d == nil || d.Result != "ok" || d.Suggested != "doors.bin" {
			t.Errorf("%s: Playwright's download: %+v", world, d)
			return
		}
		if got := landed[filepath.Base(d.Path)]; got != doorsDownload || d.Exists {
			t.Errorf("%s: Playwright's download at %s (there: %v); the world's folder holds %v; want it in the world's folder alone", world, d.Path, d.Exists, landed)
		}
		return
	}
	if d := rep.Doors["download"]; d.Result != "ok" || d.Read != "download completed" || landed["doors.bin"] != doorsDownload {
		t.Errorf("%s: the download with a folder of the client's own: %s %q %q; the world's folder holds %v", world, d.Result, d.Error, d.Read, landed)
	}
	// Page.setDownloadBehavior's: no event says when it is done.
	if d := rep.Doors["download by Page.setDownloadBehavior"]; d.Result != "ok" ||
		!eventually(10*time.Second, func() bool { landed = filesIn(t, r.folder(world)); return landed["doors-page.bin"] == doorsDownload }) {
		t.Errorf("%s: the download after Page.setDownloadBehavior with a folder of the client's own: %s %q; the world's folder holds %v", world, d.Result, d.Error, landed)
	}
	if got := filesIn(t, own); len(got) != 0 {
		t.Errorf("%s: the download landed in the client's own folder: %v", world, got)
	}
}

// checkJournal: each refused request is in the world's journal as a denial
// with its method, URL (or path) and rule.
func (r *doorsRig) checkJournal(t *testing.T, world string, rep doorsReport) {
	t.Helper()
	doors := append(append([]string{}, machineDoors...), rawDoors...)
	denied := r.denials(t, world, len(doors))
	for _, door := range doors {
		if rep.Doors[door].Result != "refused" {
			continue // already an error above
		}
		want := r.denial(door)
		found := false
		for _, e := range denied {
			found = found || (e.Method == want.Method && strings.EqualFold(e.URL, want.URL) && e.Note == want.Note && e.Client != nil && e.Client.ID != 0)
		}
		if !found {
			t.Errorf("%s: no denial %s %q (rule: %s) in the journal for %q; its denials: %+v", world, want.Method, want.URL, want.Note, door, denied)
		}
	}
	for _, e := range denied {
		if strings.Contains(e.URL+e.Note, r.marker) {
			t.Errorf("%s: the journal holds the secret's text: %+v", world, e)
		}
	}
}

// checkPagesLeft: no page of the world at the machine or a browser page at
// the end, as its client saw them and as its /json/list says.
func (r *doorsRig) checkPagesLeft(t *testing.T, world, endpoint string, rep doorsReport) {
	t.Helper()
	var list []struct{ URL string }
	getJSON(t, endpoint+"/json/list", &list)
	urls := rep.Pages
	for _, e := range list {
		urls = append(urls, e.URL)
	}
	for _, u := range urls {
		if machineURL(u) {
			t.Errorf("%s: a page of the world is left at %s", world, u)
		}
	}
}
