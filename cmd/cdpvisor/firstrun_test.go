package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// readmeFirstCommand is the README's first command, word for word.
var readmeFirstCommand = []string{"go", "run", "github.com/go-task/task/v3/cmd/task@v3.53.1", "run"}

// The README's first command on a machine without any browser and without
// apt-get: it builds cdpvisor, finds no browser, downloads Chrome for
// Testing with `cdpvisor install` (from a loopback mirror, holding the fake
// browser), and serves an endpoint that launches it. A second run finds the
// browser and downloads nothing.
func TestREADMEFirstCommandOnAMachineWithoutBrowser(t *testing.T) {
	onlyLinuxAMD64(t)
	if testing.Short() {
		t.Skip("builds task and cdpvisor")
	}
	fake, err := os.ReadFile(actortest.FakeBrowser(t))
	if err != nil {
		t.Fatal(err)
	}
	m := actortest.NewInstallMirror(t)
	m.ServeRelease("Stable", cftStable, "chrome", "linux64", actortest.Zip(t,
		actortest.ZipFile{Name: "chrome-linux64/chrome", Body: actortest.VersionScript(cftStable, "fakebrowser"), Mode: 0o755},
		actortest.ZipFile{Name: "chrome-linux64/fakebrowser", Body: string(fake), Mode: 0o755},
	))
	env, home := noBrowserEnv(t)
	env = append(env, goEnv(t)...)
	env = append(env, "PATH="+shadowPATH(t, filepath.Join(home, "bin")),
		"CDPVISOR_BROWSER_MIRROR="+m.URL, "CDPVISOR_STATE_DIR="+filepath.Join(home, "state"))

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, readmeFirstCommand[0], readmeFirstCommand[1:]...)
	cmd.Dir = actortest.RepoRoot()
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Ctrl-C reaches the whole group, as on a terminal
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	stderr := &actortest.SyncBuffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}) // closed when the command ended, with waitErr set
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	})

	endpoint := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if regexp.MustCompile(`^http://127\.0\.0\.1:\d+$`).MatchString(sc.Text()) {
				endpoint <- sc.Text()
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	var ep string
	select {
	case ep = <-endpoint:
	case <-done:
		t.Fatalf("exited before serving (%v):\n%s", waitErr, stderr.String())
	case <-ctx.Done():
		t.Fatalf("no endpoint line:\n%s", stderr.String())
	}
	var version struct {
		Browser              string
		WebSocketDebuggerURL string
	}
	getJSON(t, ep+"/json/version", &version)
	if !strings.HasPrefix(version.WebSocketDebuggerURL, strings.Replace(ep, "http://", "ws://", 1)+"/devtools/browser") {
		t.Fatalf("/json/version through %s: %+v", ep, version)
	}
	exe := filepath.Join(home, "cache", "cdpvisor", "browsers", "chrome", "stable-"+cftStable, "chrome-linux64", "chrome")
	for _, want := range []string{
		"ensure-browser: no browser found",
		"ensure-browser: apt-get is not available",
		"cdpvisor install: downloading chrome " + cftStable,
		"ensure-browser: installed: " + exe,
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q", want)
		}
	}

	// Ctrl-C: serve stops the browser and exits, and task with it.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("still running 30 s after SIGINT:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "stopped") {
		t.Errorf("serve did not stop cleanly:\n%s", stderr.String())
	}

	// Again: the browser is found, nothing is downloaded.
	again := exec.Command("go", "run", "github.com/go-task/task/v3/cmd/task@v3.53.1", "browser")
	again.Dir = actortest.RepoRoot()
	again.Env = cmd.Env
	out, err := again.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `Task "browser" is up to date`) || m.Hits(actortest.MirrorZipPath("chrome", cftStable, "linux64")) != 1 {
		t.Fatalf("second run: %v\n%s", err, out)
	}
}

// goEnv keeps the go command's caches and settings when HOME moves, so the
// builds hit the cache instead of starting over.
func goEnv(t *testing.T) []string {
	out, err := exec.Command("go", "env", "-json", "GOCACHE", "GOMODCACHE", "GOPATH", "GOENV", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN").Output()
	if err != nil {
		t.Fatal(err)
	}
	var vars map[string]string
	if err := json.Unmarshal(out, &vars); err != nil {
		t.Fatal(err)
	}
	var env []string
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

// shadowPATH fills dir with links to every command on this PATH except the
// browsers and apt-get, and returns dir: the machine's tools without a way
// to find or install a browser.
func shadowPATH(t *testing.T, dir string) string {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	hidden := regexp.MustCompile(`^(apt|chromium|google-chrome|microsoft-edge|brave|chrome|firefox)`)
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if hidden.MatchString(e.Name()) {
				continue
			}
			link := filepath.Join(dir, e.Name())
			if _, err := os.Lstat(link); err == nil {
				continue // an earlier PATH entry wins, as in a lookup
			}
			_ = os.Symlink(filepath.Join(d, e.Name()), link)
		}
	}
	return dir
}
