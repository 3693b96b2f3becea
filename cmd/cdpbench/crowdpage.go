package main

import (
	"fmt"
	"strings"
)

// The crowd's page (issue: N agents at once): 300 paragraphs, a table and
// 40 ms of busy script while it loads, so a load costs the renderer real
// work. The script runs inline at the end of the body, before the load
// event, so page.goto (which waits for load) always includes it. The
// button #go is what the agents click; evaluate reads crowdPageCount.
const (
	crowdPagePath  = "/crowd"
	crowdParas     = 300
	crowdTableRows = 40
	crowdBusyMs    = 40
)

// crowdPageCount is what the agents' evaluate must read: paragraphs plus
// table rows (the header row included).
const crowdPageCount = crowdParas + crowdTableRows + 1

var crowdPageHTML = buildCrowdPageHTML()

func buildCrowdPageHTML() string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><title>cdpbench crowd page</title>` +
		`<style>body{font:15px/1.45 sans-serif;margin:0 auto;max-width:960px;padding:0 16px}` +
		`td,th{border:1px solid #bbb;padding:2px 6px}table{border-collapse:collapse}</style></head><body>` +
		`<h1>A crowd's page</h1><button id="go" type="button">go</button> <span id="clicks">0</span><main>`)
	for i := 0; i < crowdParas; i++ {
		fmt.Fprintf(&b, `<p id="p%d"><b>Paragraph %d.</b> The quick brown fox jumps over the lazy dog %d times; `+
			`pack my box with five dozen liquor jugs, and sphinx of black quartz judges my vow %d.</p>`, i, i, i*i, i)
	}
	b.WriteString(`</main><table><tr><th>row</th><th>a</th><th>b</th><th>c</th><th>d</th></tr>`)
	for i := 0; i < crowdTableRows; i++ {
		fmt.Fprintf(&b, `<tr><td>%d</td><td>%d</td><td>%d</td><td>%.2f</td><td>%x</td></tr>`, i, i*3, i*i, float64(i)/7, i*4099)
	}
	fmt.Fprintf(&b, `</table><script>(function () {
  var t = performance.now(), n = 0;
  while (performance.now() - t < %d) n++;
  window.__crowdSpins = n;
  document.getElementById('go').addEventListener('click', function () {
    var c = document.getElementById('clicks');
    c.textContent = String(Number(c.textContent) + 1);
  });
})();</script></body></html>`, crowdBusyMs)
	return b.String()
}
