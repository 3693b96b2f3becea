// Command chromedp_doors is a chromedp agent trying every door of its world
// out to the machine (issue 47), as testdata/clients/doors_puppeteer.mjs
// does with Puppeteer (doors.mjs holds the tries and their names):
//
//	chromedp_doors <endpoint> <A's page URL> <secret file> <marker> [--upload=FILE] [--downloads=DIR] [--whole=ENDPOINT]
//
// endpoint: a world's own port, or the whole browser's; A's page is allowed
// by the world's policy and has a file input #f, a link #pop (target=_blank
// to its ?f= URL) and a download link #dl; --upload: a file a page may be
// given (the world's uploads folder); --downloads: the client's own
// download folder; --whole: the whole browser's endpoint, through which the
// owner plants a file: history entry in the world's page.
//
// stdout: one JSON line {"ok":true,"doors":{door: {result, error, leak,
// urls, read, console}},"pages":[…]}: result "refused" (cdpvisor's wall),
// "error" (any other) or "ok"; leak: the marker was in something the client
// read during the try (an answer, an error, a page's or a frame's text
// after it). Exit codes: 0 ok, 1 failure (stderr), 2 overall timeout (env
// CLIENT_TIMEOUT_MS).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	cio "github.com/chromedp/cdproto/io"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/cdpvisor/cdpvisor/testdata/goclients/internal/lines"
)

// settle is how long a renderer's try is given to load something.
const settle = 1500 * time.Millisecond

type record struct {
	Result  string   `json:"result"`
	Error   string   `json:"error"`
	Leak    bool     `json:"leak"`
	URLs    []string `json:"urls"`
	Read    string   `json:"read"`
	Console []string `json:"console"`
}

type agent struct {
	p                     *lines.Program
	endpoint, site, pageA string
	secret, fileURL       string
	marker                string
	tab                   context.Context // the client's own page
	main                  target.ID
	before                map[target.ID]bool // pages there before the client came: they stay
	doors                 map[string]*record
	mu                    sync.Mutex
	logged                []string
}

func main() {
	p := lines.Start("chromedp_doors", 120*time.Second)
	flags, args := map[string]string{}, []string{}
	for _, a := range os.Args[1:] {
		if k, v, ok := strings.Cut(strings.TrimPrefix(a, "--"), "="); ok && strings.HasPrefix(a, "--") {
			flags[k] = v
		} else {
			args = append(args, a)
		}
	}
	if len(args) != 4 {
		p.Fail("usage: chromedp_doors <endpoint> <site> <secret> <marker> [--upload=F] [--downloads=D] [--whole=E]")
	}
	a := &agent{p: p, endpoint: args[0], site: args[1], secret: args[2], marker: args[3], doors: map[string]*record{}}
	a.fileURL = "file://" + a.secret
	a.pageA = a.site + "?f=" + url.QueryEscape(a.fileURL)
	ws, err := lines.BrowserWebSocket(a.endpoint)
	if err != nil {
		p.Fail("%v", err)
	}
	alloc, cancelAlloc := remote.NewAllocator(context.Background(), ws)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	a.tab = tab
	if err := chromedp.Do(tab); err != nil {
		p.Fail("connect to %s: %v", ws, err)
	}
	c := chromedp.FromContext(tab)
	a.main = c.Target.TargetID
	a.before = map[target.ID]bool{}
	for _, t := range a.targets() {
		if t.TargetID != a.main {
			a.before[t.TargetID] = true
		}
	}
	_ = chromedp.Listen(tab, func(ev any) {
		if e, ok := ev.(*cdplog.EventEntryAdded); ok {
			a.mu.Lock()
			a.logged = append(a.logged, e.Entry.Text)
			a.mu.Unlock()
		}
	})
	if _, err := cdp.Call(tab, c.Target, cdplog.Enable, cdp.Empty{}); err != nil {
		p.Fail("Log.enable: %v", err)
	}
	a.run(flags)
	out, _ := json.Marshal(map[string]any{"ok": true, "doors": a.doors, "pages": a.worldURLs()})
	fmt.Printf("%s\n", out)
}

// run tries every door.
func (a *agent) run(flags map[string]string) {
	c := chromedp.FromContext(a.tab)
	b := c.Browser // the browser's session
	gotos := []struct{ name, url string }{
		{"goto file", a.fileURL},
		{"goto FILE upper case", "FILE://" + a.secret},
		{"goto view-source file", "view-source:" + a.fileURL},
		{"goto chrome://version", "chrome://version"},
		{"goto about:version", "about:version"},
		{"goto chrome-untrusted", "chrome-untrusted://print/"},
		{"goto devtools", "devtools://devtools/bundled/inspector.html"},
		{"goto filesystem file", "filesystem:" + a.fileURL},
		{"goto chrome-extension", "chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/index.html"},
	}
	for _, g := range gotos {
		a.try(g.name, true, func(ctx context.Context) (string, error) {
			if err := chromedp.Do(ctx, chromedp.Navigate(g.url)); err != nil {
				return "", err
			}
			return a.readPage(ctx), nil
		})
	}
	for _, t := range []struct{ name, url string }{{"Target.createTarget file", a.fileURL}, {"Target.createTarget chrome://version", "chrome://version"}} {
		a.try(t.name, true, func(ctx context.Context) (string, error) {
			r, err := cdp.Call(ctx, b, target.CreateTarget, target.CreateTargetParams{URL: t.url})
			time.Sleep(settle)
			return "made " + string(r.TargetID), err
		})
	}
	a.try("Network.loadNetworkResource file", true, func(ctx context.Context) (string, error) {
		tree, err := cdp.Call(ctx, c.Target, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return "", err
		}
		r, err := cdp.Call(ctx, c.Target, network.LoadNetworkResource, network.LoadNetworkResourceParams{
			FrameID: tree.FrameTree.Frame.ID, URL: a.fileURL, Options: &network.LoadNetworkResourceOptions{DisableCache: true}})
		if err != nil || r.Resource == nil || r.Resource.Stream == "" {
			return fmt.Sprintf("%+v", r.Resource), err
		}
		var body []byte
		for {
			chunk, err := cdp.Call(ctx, c.Target, cio.Read, cio.ReadParams{Handle: r.Resource.Stream})
			if err != nil {
				return string(body), err
			}
			body = append(body, chunk.Data...)
			if chunk.EOF {
				return string(body), nil
			}
		}
	})
	a.try("/json/new file", true, func(ctx context.Context) (string, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPut, strings.TrimRight(a.endpoint, "/")+"/json/new?"+a.fileURL, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		var text strings.Builder
		_, _ = fmt.Fprint(&text, resp.Status, " ")
		buf := make([]byte, 4096)
		n, _ := resp.Body.Read(buf)
		text.Write(buf[:n])
		time.Sleep(settle)
		if resp.StatusCode != http.StatusOK {
			return "", errors.New("/json/new: " + text.String())
		}
		return text.String(), nil
	})

	if whole := flags["whole"]; whole != "" {
		a.fresh()
		a.plant(whole)
		a.try("Page.navigateToHistoryEntry file", false, func(ctx context.Context) (string, error) {
			h, err := cdp.Call(ctx, c.Target, page.GetNavigationHistory, cdp.Empty{})
			if err != nil {
				return "", err
			}
			for _, e := range h.Entries {
				if strings.HasPrefix(e.URL, "file:") {
					if _, err := cdp.Call(ctx, c.Target, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: e.ID}); err != nil {
						return "", err
					}
					time.Sleep(settle)
					return a.readPage(ctx), nil
				}
			}
			return "", errors.New("no file: entry was planted")
		})
		a.fresh()
		a.plant(whole)
		a.try("history.back into a planted file entry", false, func(ctx context.Context) (string, error) {
			if err := a.eval(ctx, `setTimeout(() => history.back())`, nil); err != nil {
				return "", err
			}
			time.Sleep(settle)
			return a.readPage(ctx), nil
		})
	}

	u, _ := json.Marshal(a.fileURL)
	renderer := []struct{ name, js string }{
		{"iframe file", fmt.Sprintf(`{const f = document.createElement('iframe'); f.src = %s; document.body.append(f); 'added'}`, u)},
		{"data: iframe in A with iframe file", fmt.Sprintf(`{const f = document.createElement('iframe'); f.src = 'data:text/html,' + encodeURIComponent('<p>data frame</p><iframe src="' + %s + '"></iframe>'); document.body.append(f); 'added'}`, u)},
		{"window.open file", fmt.Sprintf(`[%s, %q].map((x) => (window.open(x) ? 'opened ' : 'not opened ') + x).join('; ')`, u, a.site+"#opened")},
		{"location.href file", fmt.Sprintf(`location.href = %s`, u)},
	}
	for _, r := range renderer {
		a.try(r.name, true, func(ctx context.Context) (string, error) {
			var got string
			err := a.eval(ctx, r.js, &got)
			time.Sleep(settle)
			return got + a.readPage(ctx), err
		})
	}
	a.try("data: page iframe file", true, func(ctx context.Context) (string, error) {
		err := chromedp.Do(ctx, chromedp.Navigate("data:text/html,"+url.PathEscape(`<p>data page</p><iframe src="`+a.fileURL+`"></iframe>`)))
		time.Sleep(settle)
		return a.readPage(ctx), err
	})
	a.try("popup target=_blank file", true, func(ctx context.Context) (string, error) {
		err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#pop")))
		time.Sleep(settle)
		return a.readPage(ctx), err
	})
	a.try("history.back after a refused file navigation", true, func(ctx context.Context) (string, error) {
		// A tab of its own: its history is about:blank, then A. Left open
		// (detached) for the reading after the try, closed with the tries'
		// other pages.
		tab, detach := chromedp.NewContext(a.tab, chromedp.WithDetachOnCancel())
		defer detach()
		tctx, cancel := context.WithTimeout(tab, 20*time.Second)
		defer cancel()
		if err := chromedp.Do(tctx, chromedp.Navigate(a.pageA)); err != nil {
			return "", err
		}
		refused := chromedp.Do(tctx, chromedp.Navigate(a.fileURL))
		err := a.eval(tctx, `setTimeout(() => history.back())`, nil)
		time.Sleep(settle)
		return fmt.Sprint(refused) + a.readPage(tctx), err
	})
	a.try("service worker fetch file", true, func(ctx context.Context) (string, error) {
		var got string
		err := a.eval(ctx, fmt.Sprintf(`(async (u) => {
			const reg = await navigator.serviceWorker.register('/sw.js');
			await navigator.serviceWorker.ready;
			const answer = new Promise((resolve) => navigator.serviceWorker.addEventListener('message', (e) => resolve(e.data), { once: true }));
			(reg.active || reg.waiting || reg.installing).postMessage(u);
			return answer;
		})(%s)`, u), &got)
		return got, err
	})

	inputFiles := `(async () => { const out = []; for (const f of document.querySelector('#f').files) out.push(f.name + ': ' + (await f.text())); return out.join('\n'); })()`
	uploads := map[string]string{"DOM.setFileInputFiles secret": a.secret}
	if f := flags["upload"]; f != "" {
		uploads["DOM.setFileInputFiles uploads"] = f
	}
	for _, name := range []string{"DOM.setFileInputFiles secret", "DOM.setFileInputFiles uploads"} {
		path, ok := uploads[name]
		if !ok {
			continue
		}
		a.try(name, true, func(ctx context.Context) (string, error) {
			err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.CSS("#f"), []string{path}))
			var got string
			_ = a.eval(ctx, inputFiles, &got)
			return "uploaded; after: " + got, err
		})
	}

	a.try("Target.exposeDevToolsProtocol hidden", true, func(ctx context.Context) (string, error) {
		r, err := cdp.Call(ctx, b, target.CreateTarget, target.CreateTargetParams{URL: "about:blank", Hidden: ptr(true)})
		if err != nil {
			return "", err
		}
		defer cdp.Call(ctx, b, target.CloseTarget, target.CloseTargetParams{TargetID: r.TargetID})
		_, err = cdp.Call(ctx, b, target.ExposeDevToolsProtocol, target.ExposeDevToolsProtocolParams{TargetID: r.TargetID, BindingName: "cdp"})
		return "exposed on " + string(r.TargetID), err
	})
	a.try("Target.sendMessageToTarget", true, func(ctx context.Context) (string, error) {
		// Not in cdproto any more (deprecated): sent as the raw method.
		var res json.RawMessage
		err := c.Browser.Call(ctx, "Target.sendMessageToTarget", map[string]any{
			"targetId": a.main, "message": `{"id":1,"method":"Runtime.evaluate","params":{"expression":"1"}}`}, &res)
		return string(res), err
	})

	if dir := flags["downloads"]; dir != "" {
		a.try("download", true, func(ctx context.Context) (string, error) {
			done := make(chan string, 1)
			_ = chromedp.ListenBrowser(ctx, func(ev any) {
				if e, ok := ev.(*browser.EventDownloadProgress); ok && e.State != browser.DownloadProgressStateInProgress {
					select {
					case done <- string(e.State):
					default:
					}
				}
			})
			if _, err := cdp.Call(ctx, b, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
				Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir, EventsEnabled: ptr(true)}); err != nil {
				return "", err
			}
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#dl"))); err != nil {
				return "", err
			}
			select {
			case s := <-done:
				return "download " + s, nil
			case <-ctx.Done():
				return "", errors.New("the download did not end")
			}
		})
		// The page's own (deprecated) setting, not in cdproto any more: sent
		// as the raw method; no events tell where the file went.
		a.try("download by Page.setDownloadBehavior", true, func(ctx context.Context) (string, error) {
			err := c.Target.Call(ctx, "Page.setDownloadBehavior", map[string]any{"behavior": "allow", "downloadPath": dir}, nil)
			if err != nil {
				return "", err
			}
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#dl2"))); err != nil {
				return "", err
			}
			time.Sleep(2 * time.Second)
			return "clicked", nil
		})
	}
	a.closeExtraPages()
}

// try runs one door and records it: fresh, the client's page is A's, alone.
func (a *agent) try(name string, fresh bool, body func(ctx context.Context) (string, error)) {
	fmt.Fprintf(os.Stderr, "chromedp_doors: %s\n", name)
	if fresh {
		a.fresh()
	}
	a.mu.Lock()
	logged := len(a.logged)
	a.mu.Unlock()
	ctx, cancel := context.WithTimeout(a.tab, 30*time.Second)
	got, err := body(ctx)
	cancel()
	rec := &record{Result: "ok", URLs: []string{}, Console: []string{}}
	if err != nil {
		rec.Error = strings.SplitN(err.Error(), "\n", 2)[0]
		rec.Result = "error"
		if strings.Contains(rec.Error, "is refused in world") {
			rec.Result = "refused"
		}
		got += " " + err.Error()
	}
	time.Sleep(200 * time.Millisecond)
	seen := a.readAll()
	rec.URLs = a.worldURLs()
	rec.Leak = strings.Contains(got+seen, a.marker)
	rec.Read = cut(got, 400)
	a.mu.Lock()
	for _, m := range a.logged[logged:] {
		if len(rec.Console) < 5 {
			rec.Console = append(rec.Console, cut(m, 200))
		}
	}
	a.mu.Unlock()
	a.doors[name] = rec
}

// fresh closes the pages the tries opened and loads A in the client's page.
func (a *agent) fresh() {
	a.closeExtraPages()
	ctx, cancel := context.WithTimeout(a.tab, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(a.pageA)); err != nil {
		a.p.Fail("goto A: %v", err)
	}
}

func (a *agent) targets() []*target.Info {
	ctx, cancel := context.WithTimeout(a.tab, 10*time.Second)
	defer cancel()
	r, err := cdp.Call(ctx, chromedp.FromContext(a.tab).Browser, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		a.p.Fail("Target.getTargets: %v", err)
	}
	return r.TargetInfos
}

// worldURLs are the URLs of the world's targets and of the client's page's frames.
func (a *agent) worldURLs() []string {
	urls := []string{}
	failed := map[string]bool{} // frames at Chromium's error page for a load that failed: at no document of that URL
	ctx, cancel := context.WithTimeout(a.tab, 10*time.Second)
	defer cancel()
	if tree, err := cdp.Call(ctx, chromedp.FromContext(a.tab).Target, page.GetFrameTree, cdp.Empty{}); err == nil {
		var walk func(*page.FrameTree)
		walk = func(f *page.FrameTree) {
			if u := f.Frame.UnreachableURL; u != "" {
				failed[u] = true
				urls = append(urls, "chrome-error (a failed load of "+u+")")
			} else {
				urls = append(urls, f.Frame.URL)
			}
			for _, ch := range f.ChildFrames {
				walk(ch)
			}
		}
		walk(tree.FrameTree)
	}
	for _, t := range a.targets() {
		if !failed[t.URL] { // a target's URL is its error page's failed URL too
			urls = append(urls, t.URL)
		}
	}
	return urls
}

func (a *agent) closeExtraPages() {
	ctx, cancel := context.WithTimeout(a.tab, 10*time.Second)
	defer cancel()
	for _, t := range a.targets() {
		if t.Type == "page" && t.TargetID != a.main && !a.before[t.TargetID] {
			_, _ = cdp.Call(ctx, chromedp.FromContext(a.tab).Browser, target.CloseTarget, target.CloseTargetParams{TargetID: t.TargetID})
		}
	}
}

// readAll is what every page of the world shows: each one's frames' documents.
func (a *agent) readAll() string {
	var text strings.Builder
	for _, t := range a.targets() {
		if t.Type != "page" {
			continue
		}
		if t.TargetID == a.main {
			ctx, cancel := context.WithTimeout(a.tab, 10*time.Second)
			text.WriteString(a.readPage(ctx))
			cancel()
			continue
		}
		other, cancel := chromedp.NewContext(a.tab, chromedp.WithTargetID(t.TargetID))
		ctx, cancelT := context.WithTimeout(other, 10*time.Second)
		text.WriteString(a.readPage(ctx))
		cancelT()
		cancel()
	}
	return text.String()
}

// readPage is the text of every frame of ctx's page, read in a world of the client's own.
func (a *agent) readPage(ctx context.Context) string {
	var text strings.Builder
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		tree, err := cdp.Call(ctx, t, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return err
		}
		var walk func(*page.FrameTree)
		walk = func(f *page.FrameTree) {
			fmt.Fprintf(&text, "\n[%s] ", f.Frame.URL)
			w, err := cdp.Call(ctx, t, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: f.Frame.ID, WorldName: "doors"})
			if err == nil {
				r, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{
					Expression: `document.documentElement ? document.documentElement.outerHTML : ''`, ContextID: w.ExecutionContextID, ReturnByValue: ptr(true)})
				if err == nil && r.Result != nil {
					var s string
					_ = json.Unmarshal(r.Result.Value, &s)
					text.WriteString(s)
				}
			}
			for _, ch := range f.ChildFrames {
				walk(ch)
			}
		}
		walk(tree.FrameTree)
		return nil
	}))
	if err != nil {
		fmt.Fprintf(&text, "(unread: %v)", err)
	}
	return text.String()
}

// eval runs js in the client's page (a user gesture, as a click's script).
func (a *agent) eval(ctx context.Context, js string, out *string) error {
	r, err := chromedp.Run(ctx, chromedp.Evaluate[*runtime.RemoteObject](js, chromedp.EvalAwaitPromise, func(p *runtime.EvaluateParams) {
		p.UserGesture = ptr(true)
		p.ReturnByValue = ptr(true)
	}))
	if err == nil && out != nil && r != nil {
		if json.Unmarshal(r.Value, out) != nil {
			*out = string(r.Value)
		}
	}
	return err
}

// plant navigates the client's page, through the whole browser's endpoint
// (the owner's client), to the secret file and back to A: its history then
// holds a file: entry.
func (a *agent) plant(whole string) {
	ws, err := lines.BrowserWebSocket(whole)
	if err != nil {
		a.p.Fail("plant: %v", err)
	}
	alloc, cancelAlloc := remote.NewAllocator(context.Background(), ws)
	defer cancelAlloc()
	owner, cancel := chromedp.NewContext(alloc, chromedp.WithTargetID(a.main), chromedp.WithDetachOnCancel())
	defer cancel()
	ctx, cancelT := context.WithTimeout(owner, 20*time.Second)
	defer cancelT()
	// The file's load may fail (a guarded world's page is refused local
	// files, the owner's loads too): its entry is planted all the same.
	goFile := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.Navigate, page.NavigateParams{URL: a.fileURL})
		time.Sleep(settle)
		return err
	})
	if err := chromedp.Do(ctx, goFile, chromedp.Navigate(a.pageA)); err != nil {
		a.p.Fail("plant: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
