package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// The npm packages, built by .ci/npm/build.mjs from a GoReleaser-shaped
// dist/ holding this platform's binary, packed, installed offline from the
// tarballs into a temporary prefix, and run through npx: --version, an MCP
// initialize over stdio, exit codes and signals passed through.
func TestNPMPackagesInstallOfflineAndRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("drives npx through POSIX signals")
	}
	for _, tool := range []string{"node", "npm", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			actortest.Missing(t, tool)
		}
	}
	nodePlatform := map[string]string{"linux": "linux", "darwin": "darwin"}[runtime.GOOS] + "-" +
		map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	tmp := t.TempDir()
	dist := filepath.Join(tmp, "dist")
	if err := os.MkdirAll(dist, 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSONFile(t, filepath.Join(dist, "metadata.json"), map[string]string{"project_name": "cdpvisor", "version": "v" + version})
	writeJSONFile(t, filepath.Join(dist, "artifacts.json"), []map[string]string{
		{"name": "cdpvisor", "path": binary, "goos": runtime.GOOS, "goarch": runtime.GOARCH, "type": "Binary"},
		{"name": "cdpvisor.tar.gz", "path": "dist/cdpvisor.tar.gz", "goos": runtime.GOOS, "goarch": runtime.GOARCH, "type": "Archive"},
	})
	// npm's own cache and config stay in the test; the registry is a closed
	// loopback port, so any download attempt fails the install.
	npmEnv := append(os.Environ(), "npm_config_cache="+filepath.Join(tmp, "npm-cache"), "npm_config_registry=http://127.0.0.1:9/",
		"npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false", "npm_config_userconfig="+filepath.Join(tmp, "npmrc"))

	build := exec.Command("node", filepath.Join(actortest.RepoRoot(), ".ci", "npm", "build.mjs"), "--dist", dist, "--platforms", nodePlatform, "--pack")
	build.Env = npmEnv
	out, err := build.Output()
	if err != nil {
		t.Fatalf("build.mjs: %v\n%s", err, stderrOf(err))
	}
	tarballs := strings.Fields(string(out))
	if len(tarballs) != 2 || !strings.HasSuffix(tarballs[1], "cdpvisor-"+version+".tgz") {
		t.Fatalf("build.mjs packed %q, want the %s package and the wrapper", tarballs, nodePlatform)
	}

	prefix := filepath.Join(tmp, "prefix")
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSONFile(t, filepath.Join(prefix, "package.json"), map[string]bool{"private": true})
	install := exec.Command("npm", append([]string{"install", "--offline", "--no-save"}, tarballs...)...)
	install.Dir, install.Env = prefix, npmEnv
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install --offline: %v\n%s", err, out)
	}
	platforms, _ := os.ReadDir(filepath.Join(prefix, "node_modules", "@cdpvisor"))
	if len(platforms) != 1 || platforms[0].Name() != nodePlatform {
		t.Fatalf("installed platform packages %v, want only %s", platforms, nodePlatform)
	}
	// Each package, as installed from its tarball, says its licence and
	// carries the project's LICENSE.
	wantLicense, err := os.ReadFile(filepath.Join(actortest.RepoRoot(), "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"cdpvisor", filepath.Join("@cdpvisor", nodePlatform)} {
		dir := filepath.Join(prefix, "node_modules", pkg)
		raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err != nil {
			t.Fatal(err)
		}
		var manifest struct {
			License any `json:"license"`
		}
		if err := json.Unmarshal(raw, &manifest); err != nil {
			t.Fatalf("%s/package.json: %v", pkg, err)
		}
		if manifest.License != "Apache-2.0" {
			t.Errorf("%s/package.json has license %#v, want \"Apache-2.0\"", pkg, manifest.License)
		}
		if got, err := os.ReadFile(filepath.Join(dir, "LICENSE")); err != nil || string(got) != string(wantLicense) {
			t.Errorf("%s/LICENSE is not the project's LICENSE (%v)", pkg, err)
		}
	}

	npx := func(args ...string) *exec.Cmd {
		cmd := exec.Command("npx", append([]string{"--offline", "cdpvisor"}, args...)...)
		cmd.Dir, cmd.Env = prefix, npmEnv
		return cmd
	}
	out, err = npx("--version").Output()
	if err != nil || !regexp.MustCompile(`^cdpvisor `+regexp.QuoteMeta(version)+` \(commit \S+, go1\.\S+ \S+/\S+\)\n$`).Match(out) {
		t.Fatalf("npx cdpvisor --version: %v, %q", err, out)
	}
	if err := npx("sevre").Run(); exitCodeOf(err) != 2 {
		t.Fatalf("npx cdpvisor sevre: %v, want exit code 2 passed through", err)
	}

	t.Run("mcp initialize over stdio", func(t *testing.T) {
		mcp := npx("mcp", "--browser", actortest.FakeBrowser(t), "--state-dir", t.TempDir(), "--log-level", "warn")
		stdin, _ := mcp.StdinPipe()
		stdout, _ := mcp.StdoutPipe()
		var stderr strings.Builder
		mcp.Stderr = &stderr
		if err := mcp.Start(); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"npm-test","version":"1"}}}`)
		line := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(stdout)
			sc.Buffer(nil, 1<<20)
			sc.Scan()
			line <- sc.Text()
			_, _ = io.Copy(io.Discard, stdout)
		}()
		var reply struct {
			ID     int
			Result struct {
				ProtocolVersion string
				ServerInfo      struct{ Name, Version string }
			}
		}
		select {
		case l := <-line:
			if err := json.Unmarshal([]byte(l), &reply); err != nil || reply.ID != 1 || reply.Result.ServerInfo.Name != "cdpvisor" ||
				reply.Result.ServerInfo.Version != version || reply.Result.ProtocolVersion == "" {
				t.Fatalf("initialize answered %q (%v)\n%s", l, err, stderr.String())
			}
		case <-time.After(30 * time.Second):
			_ = mcp.Process.Kill()
			t.Fatalf("no answer to initialize\n%s", stderr.String())
		}
		fmt.Fprintln(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		stdin.Close() // the host goes: cdpvisor mcp exits 0, and npx with it
		if err := waitExit(mcp, 20*time.Second); err != nil {
			t.Fatalf("after stdin closed: %v\n%s", err, stderr.String())
		}
	})

	t.Run("signals pass through the launcher", func(t *testing.T) {
		launcher := filepath.Join(prefix, "node_modules", "cdpvisor", "bin", "cdpvisor.js")
		for _, tt := range []struct {
			name   string
			signal func(node *exec.Cmd, binaryPid int)
			want   string // how node ends
		}{
			// SIGTERM to the launcher reaches cdpvisor, which stops cleanly.
			{"SIGTERM forwarded", func(node *exec.Cmd, _ int) { _ = node.Process.Signal(syscall.SIGTERM) }, "exit status 0"},
			// cdpvisor killed: the launcher ends by the same signal.
			{"killed binary", func(_ *exec.Cmd, pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }, "signal: killed"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				stateDir := t.TempDir()
				node := exec.Command("node", launcher, "serve", "--browser", actortest.FakeBrowser(t), "--state-dir", stateDir)
				node.Env = npmEnv
				stdout, _ := node.StdoutPipe()
				var stderr actortest.SyncBuffer
				node.Stderr = &stderr
				if err := node.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = node.Process.Kill(); _ = node.Wait() })
				sc := bufio.NewScanner(stdout)
				if !sc.Scan() || !strings.HasPrefix(sc.Text(), "http://127.0.0.1:") {
					t.Fatalf("no endpoint line\n%s", stderr.String())
				}
				files, _ := filepath.Glob(filepath.Join(stateDir, "coordinator-*.json"))
				var pid int
				if len(files) != 1 || func() error {
					_, err := fmt.Sscanf(filepath.Base(files[0]), "coordinator-%d.json", &pid)
					return err
				}() != nil {
					t.Fatalf("state files %v", files)
				}
				tt.signal(node, pid)
				err := waitExit(node, 20*time.Second)
				got := "exit status 0"
				if err != nil {
					got = err.Error()
				}
				if got != tt.want {
					t.Fatalf("node ended with %q, want %q\n%s", got, tt.want, stderr.String())
				}
			})
		}
	})
}

func writeJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}

func exitCodeOf(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// waitExit waits for cmd, killing it after d.
func waitExit(cmd *exec.Cmd, d time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		_ = cmd.Process.Kill()
		return fmt.Errorf("still running after %s: %v", d, <-done)
	}
}
