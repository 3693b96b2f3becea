// echo(url) opens a websocket to a CDP endpoint (its Origin is this
// extension's, chrome-extension://ID), sends Browser.getVersion and
// resolves with the answer's product, or rejects with why it failed.
// The test calls it through CDP (Runtime.evaluate in this worker).
globalThis.echo = (url) => new Promise((resolve, reject) => {
  const ws = new WebSocket(url);
  ws.onopen = () => ws.send(JSON.stringify({ id: 1, method: "Browser.getVersion" }));
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.id !== 1) return;
    ws.close();
    if (m.error) reject(new Error(JSON.stringify(m.error)));
    else resolve(m.result.product);
  };
  ws.onerror = () => reject(new Error("websocket to " + url + " failed"));
});
