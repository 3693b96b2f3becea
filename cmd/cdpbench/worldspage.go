package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// The agents' page: served by the bench on loopback, the same bytes for
// every side. It has some weight of its own: 200 paragraphs, a 50-row
// table, a stylesheet, and a script that keeps 20 000 small objects alive,
// adds 500 list items and draws on a canvas. It sets
// window.__cdpbenchReady on its load event.
const (
	// helloPagePath is a page of no weight (the time to a working world
	// times the context, not the page).
	helloPagePath = "/hello"
	helloPageHTML = "<!doctype html><title>hello</title><p>hello</p>"
	agentPagePath = "/agent"
	agentReadyJS  = `document.readyState === 'complete' && window.__cdpbenchReady === true`
)

var (
	agentPageHTML = buildAgentPageHTML()
	agentPageCSS  = `body{font:15px/1.45 sans-serif;margin:0 auto;max-width:960px;padding:0 16px;color:#222}
h1{font-size:28px;border-bottom:2px solid #468}nav a{margin-right:10px;color:#468}
p{margin:8px 0}p b{color:#624}table{border-collapse:collapse;margin:16px 0}
td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}tr:nth-child(even){background:#eef}
li{list-style:square;color:#335}canvas{border:1px solid #888;display:block;margin:16px 0}
`
	agentPageJS = `(function () {
  var objects = [];
  for (var i = 0; i < 20000; i++) {
    objects.push({id: i, name: 'item ' + i, tags: ['a' + (i % 7), 'b' + (i % 11)], value: i * 1.5});
  }
  window.__cdpbenchObjects = objects;
  var list = document.getElementById('list');
  for (var j = 0; j < 500; j++) {
    var li = document.createElement('li');
    li.textContent = objects[j * 40].name + ' ' + objects[j * 40].tags.join(',');
    list.appendChild(li);
  }
  var c = document.getElementById('canvas').getContext('2d');
  for (var k = 0; k < 200; k++) {
    c.fillStyle = 'hsl(' + (k * 37 % 360) + ',70%,50%)';
    c.fillRect((k * 13) % 580, (k * 7) % 280, 20, 20);
  }
  window.addEventListener('load', function () { window.__cdpbenchReady = true; });
})();
`
)

func buildAgentPageHTML() string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><title>cdpbench agent page</title>` +
		`<link rel="stylesheet" href="/style.css"></head><body><h1>An agent's page</h1><nav>`)
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, `<a href="#s%d">section %d</a>`, i*10, i)
	}
	b.WriteString(`</nav><main>`)
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, `<p id="s%d"><b>Paragraph %d.</b> The quick brown fox jumps over the lazy dog %d times; `+
			`pack my box with five dozen liquor jugs, and <a href="#s%d">see paragraph %d</a> for how sphinx of black quartz `+
			`judges my vow %d. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>`,
			i, i, i*i, (i+17)%200, (i+17)%200, i)
	}
	b.WriteString(`</main><table><tr><th>row</th><th>a</th><th>b</th><th>c</th><th>d</th><th>e</th></tr>`)
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, `<tr><td>%d</td><td>%d</td><td>%d</td><td>%.2f</td><td>%x</td><td>%d</td></tr>`, i, i*3, i*i, float64(i)/7, i*4099, 50-i)
	}
	b.WriteString(`</table><ul id="list"></ul><canvas id="canvas" width="600" height="300"></canvas>` +
		`<script src="/app.js"></script></body></html>`)
	return b.String()
}

// pageServer serves the agents' page on 127.0.0.1.
type pageServer struct {
	srv  *http.Server
	base string // http://127.0.0.1:PORT
}

func startPageServer() (*pageServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	serve := func(path, ctype, body string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			_, _ = w.Write([]byte(body))
		})
	}
	serve(agentPagePath, "text/html; charset=utf-8", agentPageHTML)
	serve("/style.css", "text/css", agentPageCSS)
	serve("/app.js", "text/javascript", agentPageJS)
	serve(helloPagePath, "text/html; charset=utf-8", helloPageHTML)
	serve(crowdPagePath, "text/html; charset=utf-8", crowdPageHTML)
	mux.HandleFunc("/favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			progress("page server: %v", err)
		}
	}()
	return &pageServer{srv: srv, base: "http://" + ln.Addr().String()}, nil
}

func (p *pageServer) close() { _ = p.srv.Close() }

// pageURL is agent i's page j (distinct URLs, the same bytes).
func (p *pageServer) pageURL(agent, page int) string {
	return fmt.Sprintf("%s%s?agent=%d&page=%d", p.base, agentPagePath, agent, page)
}

// pageBytes is what one page load transfers (HTML, script, style).
func pageBytes() int { return len(agentPageHTML) + len(agentPageCSS) + len(agentPageJS) }
