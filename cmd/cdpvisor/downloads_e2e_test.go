package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// downloadSite is a local site with a page of download links: a 1 MiB
// attachment, and one that stalls after its first bytes until released.
type downloadSite struct {
	url     string
	file    []byte // /file.bin, as report.bin
	slow    []byte // /slow.bin, as slow.bin
	release chan struct{}
}

const slowHead = 64 << 10 // what /slow.bin sends before it stalls

func newDownloadSite(t *testing.T) *downloadSite {
	t.Helper()
	s := &downloadSite{file: randomBytes(t, 1<<20), slow: randomBytes(t, 512<<10), release: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><a id="file" href="/file.bin">report</a> <a id="slow" href="/slow.bin">slow</a>`)
	})
	attach := func(w http.ResponseWriter, name string, size int) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		w.Header().Set("Content-Length", fmt.Sprint(size))
	}
	mux.HandleFunc("/file.bin", func(w http.ResponseWriter, r *http.Request) {
		attach(w, "report.bin", len(s.file))
		_, _ = w.Write(s.file)
	})
	mux.HandleFunc("/slow.bin", func(w http.ResponseWriter, r *http.Request) {
		attach(w, "slow.bin", len(s.slow))
		_, _ = w.Write(s.slow[:slowHead])
		w.(http.Flusher).Flush()
		select {
		case <-s.release:
			_, _ = w.Write(s.slow[slowHead:])
		case <-r.Context().Done():
		}
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() {
		select {
		case <-s.release:
		default:
			close(s.release)
		}
		_ = srv.Close()
	})
	s.url = "http://" + l.Addr().String() + "/"
	return s
}

func randomBytes(t *testing.T, n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// mcpClient is `cdpvisor mcp` on real Chromium, driven by mcp-go's client
// over its stdin and stdout.
type mcpClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	client *client.Client
	stderr *actortest.SyncBuffer
}

func startMCPClient(t *testing.T, args ...string) *mcpClient {
	t.Helper()
	m := &mcpClient{t: t, stderr: &actortest.SyncBuffer{}}
	m.cmd = exec.Command(binary, append([]string{"mcp"}, args...)...)
	// Chromium's own default place is under $HOME: a download cdpvisor
	// fails to direct lands in the test's directory, not the user's.
	m.cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	m.cmd.Stderr = m.stderr
	stdin, err := m.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := m.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	m.client = client.NewClient(transport.NewIO(stdout, stdin, nil))
	t.Cleanup(func() {
		if m.cmd.ProcessState == nil { // the test failed before it closed
			_ = m.cmd.Process.Kill()
			_ = m.cmd.Wait()
		}
		if t.Failed() {
			t.Logf("cdpvisor mcp stderr:\n%s", m.stderr.String())
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := m.client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "downloads-test", Version: "1"}
	if _, err := m.client.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v; stderr:\n%s", err, m.stderr.String())
	}
	return m
}

// call invokes a tool and returns its first text and whether it is an error.
func (m *mcpClient) call(name string, args map[string]any) (string, bool) {
	m.t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := m.client.CallTool(ctx, req)
	if err != nil {
		m.t.Fatalf("%s %v: %v", name, args, err)
	}
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			return tc.Text, res.IsError
		}
	}
	m.t.Fatalf("%s %v: no text", name, args)
	return "", false
}

// entry calls a tool that answers a download entry as JSON text.
func (m *mcpClient) entry(name string, args map[string]any) downloads.Entry {
	m.t.Helper()
	text, isError := m.call(name, args)
	var e downloads.Entry
	if isError || json.Unmarshal([]byte(text), &e) != nil {
		m.t.Fatalf("%s %v: %s", name, args, text)
	}
	return e
}

func (m *mcpClient) list(instance string) []downloads.Entry {
	m.t.Helper()
	args := map[string]any{}
	if instance != "" {
		args["instance"] = instance
	}
	text, isError := m.call("download_list", args)
	var list []downloads.Entry
	if isError || json.Unmarshal([]byte(text), &list) != nil {
		m.t.Fatalf("download_list %v: %s", args, text)
	}
	return list
}

// waitAsync starts a download_wait; its entry comes on the channel.
func (m *mcpClient) waitAsync(args map[string]any) <-chan downloads.Entry {
	out := make(chan downloads.Entry, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "download_wait", args
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		res, err := m.client.CallTool(ctx, req)
		var e downloads.Entry
		switch {
		case err != nil:
			m.t.Errorf("download_wait %v: %v", args, err)
		case res.IsError:
			m.t.Errorf("download_wait %v: %v", args, res.Content)
		default:
			_ = json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &e)
		}
		out <- e
	}()
	return out
}

// close ends the session as a host does (stdin EOF) and waits for
// cdpvisor to exit.
func (m *mcpClient) close() {
	m.t.Helper()
	done := make(chan error, 1)
	go func() { _ = m.client.Close(); done <- m.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil && m.cmd.ProcessState == nil {
			m.t.Fatalf("mcp: %v", err)
		}
		if code := m.cmd.ProcessState.ExitCode(); code != 0 {
			m.t.Fatalf("mcp exited %d", code)
		}
	case <-time.After(30 * time.Second):
		m.t.Fatal("mcp did not exit within 30 s of stdin EOF")
	}
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func clickDownloads(t *testing.T, endpoint, page string, selectors ...string) {
	t.Helper()
	out, err := actortest.NodeScript(t, 60*time.Second, "download_click.mjs", append([]string{endpoint, page}, selectors...)...)
	if err != nil {
		t.Fatalf("download_click %v: %v: %s", selectors, err, out)
	}
}

// The end-to-end run on real Chromium, through the public
// interfaces only: `cdpvisor mcp` over stdio, Puppeteer on the endpoint.
func TestDownloadsEndToEnd(t *testing.T) {
	actortest.Chromium(t)
	actortest.ClientsDir(t)
	site := newDownloadSite(t)
	root := filepath.Join(t.TempDir(), "dl")
	stateDir := t.TempDir()
	m := startMCPClient(t, "--browser", "chromium", "--state-dir", stateDir, "--download-dir", root, "--port", fmt.Sprint(freePort(t)))

	text, _ := m.call("coordinator_status", nil)
	insts := m.instances()
	if len(insts) != 1 {
		t.Fatalf("coordinator_status: %+v", insts)
	}
	def := insts[0]
	dir := filepath.Join(root, def.ID)
	if def.DownloadDir != dir || !strings.Contains(text, "downloads in "+dir) {
		t.Fatalf("default instance's download dir %q (%s), want %s", def.DownloadDir, text, dir)
	}

	// The 1 MiB attachment: download_wait (called first, as it may be)
	// returns it completed, and the file under DIR has the same bytes.
	waited := m.waitAsync(map[string]any{})
	clickDownloads(t, def.Endpoint, site.url, "#file")
	report := <-waited
	wantReport := filepath.Join(dir, "report.bin")
	if report.State != downloads.Completed || report.Path != wantReport || report.Filename != "report.bin" ||
		report.URL != site.url+"file.bin" || report.ReceivedBytes != 1<<20 || report.TotalBytes != 1<<20 || report.ID == "" {
		t.Fatalf("download_wait: %+v", report)
	}
	if fileSum(t, report.Path) != sha256.Sum256(site.file) {
		t.Fatal("report.bin differs from what the site sent")
	}

	// The slow one: in progress, received < total.
	clickDownloads(t, def.Endpoint, site.url, "#slow")
	var slow downloads.Entry
	for end := time.Now().Add(30 * time.Second); slow.ReceivedBytes == 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("no progress of slow.bin within 30 s: %+v", m.list(""))
		}
		for _, e := range m.list("") {
			if e.Filename == "slow.bin" {
				slow = e
			}
		}
	}
	if slow.State != downloads.InProgress || slow.ReceivedBytes >= slow.TotalBytes || slow.TotalBytes != int64(len(site.slow)) ||
		slow.Path != filepath.Join(dir, "slow.bin") {
		t.Fatalf("slow.bin in download_list: %+v", slow)
	}
	// A short wait times out and says how it is.
	text, isError := m.call("download_wait", map[string]any{"id": slow.ID, "timeout_s": 1})
	var now downloads.Entry
	_, after, _ := strings.Cut(text, "the download as it is now: ")
	if !isError || !strings.HasPrefix(text, "download_wait: timed out after 1 s") || json.Unmarshal([]byte(after), &now) != nil ||
		now.ID != slow.ID || now.State != downloads.InProgress {
		t.Fatalf("download_wait timeout_s 1: %v %s", isError, text)
	}
	// Released, it completes.
	waited = m.waitAsync(map[string]any{"id": slow.ID})
	close(site.release)
	slow = <-waited
	if slow.State != downloads.Completed || slow.ReceivedBytes != int64(len(site.slow)) || fileSum(t, slow.Path) != sha256.Sum256(site.slow) {
		t.Fatalf("slow.bin after release: %+v", slow)
	}

	// A browser restart keeps the files and the list.
	if text, isError := m.call("coordinator_restart_browser", map[string]any{"force": true}); isError {
		t.Fatalf("restart: %s", text)
	}
	for _, p := range []string{report.Path, slow.Path} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("after the restart: %v", err)
		}
	}
	if list := m.list(""); len(list) != 2 || list[0] != report || list[1] != slow {
		t.Errorf("download_list after the restart: %+v", list)
	}
	// Downloads go on in the relaunched browser.
	waited = m.waitAsync(map[string]any{})
	clickDownloads(t, def.Endpoint, site.url, "#file")
	again := <-waited
	if again.Path != filepath.Join(dir, "report (1).bin") || fileSum(t, again.Path) != sha256.Sum256(site.file) {
		t.Errorf("after the restart: %+v", again)
	}

	// A second instance downloads into its own folder, listed under its id.
	text, isError = m.call("browser_instance", map[string]any{"action": "new"})
	if isError {
		t.Fatal(text)
	}
	var second state.InstanceStatus
	for _, is := range m.instances() {
		if is.ID != def.ID {
			second = is
		}
	}
	if second.ID == "" || !strings.Contains(text, second.ID) || !strings.Contains(text, filepath.Join(root, second.ID)) {
		t.Fatalf("no second instance: %s", text)
	}
	waited = m.waitAsync(map[string]any{"instance": second.ID})
	clickDownloads(t, second.Endpoint, site.url, "#file")
	theirs := <-waited
	if theirs.Path != filepath.Join(root, second.ID, "report.bin") || fileSum(t, theirs.Path) != sha256.Sum256(site.file) {
		t.Errorf("second instance's download: %+v", theirs)
	}
	if list := m.list(second.ID); len(list) != 1 || list[0] != theirs {
		t.Errorf("download_list of %s: %+v", second.ID, list)
	}
	if list := m.list(""); len(list) != 3 {
		t.Errorf("the default instance lists another's download: %+v", list)
	}

	// status --json and /health show each instance's download dir.
	out, _, code := runCLI(t, nil, "status", "--json", "--state-dir", stateDir)
	var listed []state.CoordinatorStatus
	if code != 0 || json.Unmarshal([]byte(out), &listed) != nil || len(listed) != 1 || len(listed[0].Instances) != 2 ||
		listed[0].Instances[0].DownloadDir != dir || listed[0].Instances[1].DownloadDir != filepath.Join(root, second.ID) {
		t.Errorf("status --json: %s", out)
	}
	table, _, _ := runCLI(t, nil, "status", "--state-dir", stateDir)
	if !strings.Contains(table, "DOWNLOADS") || !strings.Contains(table, dir) {
		t.Errorf("status:\n%s", table)
	}
	var health state.Report
	getJSON(t, def.Endpoint+state.ReportPath, &health)
	if len(health.Instances) != 2 || health.Instances[0].DownloadDir != dir || health.Instances[1].DownloadDir != filepath.Join(root, second.ID) {
		t.Errorf("/health: %+v", health)
	}

	// cdpvisor exits with its browsers; the files stay.
	pids := m.browserPids()
	m.close()
	for _, pid := range pids {
		for end := time.Now().Add(10 * time.Second); actortest.Alive(pid) && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		}
		if actortest.Alive(pid) {
			t.Errorf("browser %d outlived cdpvisor", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	for _, p := range []string{report.Path, slow.Path, again.Path, theirs.Path} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("after cdpvisor exited: %v", err)
		}
	}
	for _, bad := range []string{"refused a downloads command", "download not renamed", "downloads connection to the running browser", "panic"} {
		if strings.Contains(m.stderr.String(), bad) {
			t.Errorf("cdpvisor logged %q", bad)
		}
	}
}

// instances is coordinator_status's instances.
func (m *mcpClient) instances() []state.InstanceStatus {
	m.t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "coordinator_status"
	res, err := m.client.CallTool(context.Background(), req)
	if err != nil {
		m.t.Fatal(err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var st state.CoordinatorStatus
	if err := json.Unmarshal(raw, &st); err != nil {
		m.t.Fatalf("coordinator_status: %s", raw)
	}
	return st.Instances
}

// browserPids are the running browsers' pids.
func (m *mcpClient) browserPids() []int {
	var out []int
	for _, is := range m.instances() {
		if is.Browser != nil && is.Browser.Pid != 0 {
			out = append(out, is.Browser.Pid)
		}
	}
	return out
}

// A client that sets its own download behaviour keeps it: Playwright's
// context with acceptDownloads gets its download where Playwright wants it,
// and cdpvisor neither moves nor lists it. The default context stays
// cdpvisor's, before and after that client.
func TestDownloadsClientsChoiceWins(t *testing.T) {
	actortest.Chromium(t)
	actortest.ClientsDir(t)
	site := newDownloadSite(t)
	root := filepath.Join(t.TempDir(), "dl")
	m := startMCPClient(t, "--browser", "chromium", "--state-dir", t.TempDir(), "--download-dir", root)
	def := m.instances()[0]
	dir := filepath.Join(root, def.ID)

	out, err := actortest.NodeScript(t, 60*time.Second, "playwright_download.mjs", def.Endpoint, site.url, "#file")
	var pw struct {
		OK              bool
		Suggested, Path string
		SHA256          string
	}
	if err != nil || json.Unmarshal([]byte(out), &pw) != nil || !pw.OK {
		t.Fatalf("playwright: %v: %s", err, out)
	}
	if sum := sha256.Sum256(site.file); pw.Suggested != "report.bin" || pw.SHA256 != fmt.Sprintf("%x", sum) || strings.HasPrefix(pw.Path, root) {
		t.Fatalf("Playwright's download: %+v", pw)
	}
	if list := m.list(""); len(list) != 0 {
		t.Errorf("cdpvisor lists the client's download: %+v", list)
	}
	// The default context's downloads are cdpvisor's, that client gone.
	waited := m.waitAsync(map[string]any{})
	clickDownloads(t, def.Endpoint, site.url, "#file")
	if e := <-waited; e.Path != filepath.Join(dir, "report.bin") || fileSum(t, e.Path) != sha256.Sum256(site.file) {
		t.Errorf("a download in the default context after the Playwright client: %+v", e)
	}
	// A client that sets the default context's behaviour itself gets its
	// download where it says, unlisted; once it is gone (Chromium resets
	// its setting) cdpvisor's applies again.
	own := t.TempDir()
	clickDownloads(t, def.Endpoint, site.url, "--own-dir", own, "#file")
	if fileSum(t, filepath.Join(own, "report.bin")) != sha256.Sum256(site.file) {
		t.Error("the client's own download differs")
	}
	if list := m.list(""); len(list) != 1 {
		t.Errorf("cdpvisor lists the client's own download: %+v", list)
	}
	waited = m.waitAsync(map[string]any{})
	clickDownloads(t, def.Endpoint, site.url, "#file")
	if e := <-waited; e.Path != filepath.Join(dir, "report (1).bin") || fileSum(t, e.Path) != sha256.Sum256(site.file) {
		t.Errorf("a download after the client with its own behaviour: %+v", e)
	}
	m.close()
}
