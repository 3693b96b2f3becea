// The live view's page: what the coordinator pushes over /ui/ws (the state
// and the screencast frames), and what the human does (watch, take over,
// drive, hand back, answer an agent). No framework, no build step.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const token = new URLSearchParams(location.search).get('token');
  let ws = null;
  let you = 0;
  let state = null;
  let watching = null; // {instance, page}
  const frames = new Map(); // "instance page" -> {src, width, height}
  let lastOverview = '';
  let lastRequests = '';
  let recorded = new Set(); // the recorded worlds' names
  let recordedAsked = ['', 0]; // the worlds and the time they were last asked about

  const key = (instance, page) => instance + ' ' + page;
  // The recordings' playback (playback.js), in the stage instead of a live page.
  const playback = window.cdpvisorPlayback({ $, el, token, onClose: () => { lastOverview = ''; renderOverview(); renderStage(); } });

  // el builds an element: never innerHTML with what pages say (titles, URLs).
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else if (k.startsWith('data-')) e.dataset[k.slice(5)] = v;
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) e.append(c);
    return e;
  }

  function setConn(cls, text) {
    const c = $('conn');
    c.className = 'conn ' + cls;
    c.textContent = text;
  }

  function connect() {
    const u = new URL('/ui/ws', location.href);
    u.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    if (token) u.searchParams.set('token', token);
    ws = new WebSocket(u);
    ws.onopen = () => setConn('live', 'live');
    ws.onclose = () => {
      setConn('down', 'disconnected: reconnecting…');
      setTimeout(connect, 1000);
    };
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'hello') {
        you = m.you;
        if (watching) send({ type: 'watch', instance: watching.instance, page: watching.page });
      } else if (m.type === 'state') onState(m);
      else if (m.type === 'frame') onFrame(m);
      else if (m.type === 'error') setConn('down', m.text);
    };
  }

  function send(o) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(o));
  }

  const worldName = (w) => (w === '' ? 'whole browser' : w);

  // findPage is the page and its world and instance in the state.
  function findPage(k) {
    if (!state || !k) return null;
    for (const inst of state.instances) {
      if (inst.id !== k.instance) continue;
      for (const w of inst.worlds) for (const p of w.pages) if (p.id === k.page) return { inst, world: w, page: p };
    }
    return null;
  }

  function requestFor(instance, world) {
    return state.requests.find((q) => q.instance === instance && q.world === world);
  }

  function onState(s) {
    state = s;
    askRecorded();
    renderRequests();
    renderOverview();
    renderEvents();
    renderStage();
  }

  // keepFocus re-renders a part without losing the keyboard's place.
  function keepFocus(render) {
    const f = document.activeElement;
    const fk = f && f.dataset ? f.dataset.focus : undefined;
    render();
    if (fk) {
      const again = document.querySelector('[data-focus="' + CSS.escape(fk) + '"]');
      if (again) again.focus();
    }
  }

  // askRecorded learns which worlds are recorded (GET /cdpvisor/worlds says
  // it of each) when the worlds change, and every few seconds, as a world's
  // recording is switched by requests the live view does not see.
  async function askRecorded() {
    if (!state) return;
    const names = JSON.stringify(state.instances.flatMap((i) => i.worlds.map((w) => w.name)).filter(Boolean).sort());
    if (names === '[]' || (names === recordedAsked[0] && Date.now() - recordedAsked[1] < 5000)) return;
    recordedAsked = [names, Date.now()];
    try {
      const resp = await fetch('/cdpvisor/worlds' + (token ? '?token=' + encodeURIComponent(token) : ''), { cache: 'no-store' });
      if (!resp.ok) return;
      const now = new Set((await resp.json()).filter((w) => w.recorded).map((w) => w.name));
      if ([...now].sort().join('\n') === [...recorded].sort().join('\n')) return;
      recorded = now;
      renderOverview();
    } catch { /* asked again at the next change */ }
  }
  setInterval(askRecorded, 5000);

  function renderOverview() {
    const shown = JSON.stringify([state.instances, state.requests.map((q) => [q.instance, q.world]), watching, [...recorded], playback.world()]);
    if (shown === lastOverview) return;
    lastOverview = shown;
    keepFocus(() => $('overview').replaceChildren(...state.instances.map(instanceCard)));
    for (const img of document.querySelectorAll('img.thumb')) {
      const f = frames.get(img.dataset.key);
      if (f) img.src = f.src;
    }
    tickUptimes();
  }

  function instanceCard(inst) {
    const facts = [
      ['browser', [inst.browser, inst.version].filter(Boolean).join(' ') || '—'],
      ['state', inst.state || '—'],
      ['pid', inst.pid ? String(inst.pid) : '—'],
      ['uptime', el('span', { 'data-started': inst.started_at || '', text: '—' })],
      ['relaunches', String(inst.relaunches)],
      ['last exit', inst.last_exit || '—'],
      ['endpoint', inst.endpoint],
    ];
    const worlds = inst.worlds.filter((w) => w.name !== '' || w.pages.length > 0);
    return el('article', { class: 'card', 'aria-label': 'Instance ' + inst.id },
      el('h2', { text: (inst.default ? 'Default instance ' : 'Instance ') + inst.id }),
      el('dl', { class: 'facts' }, facts.map(([k, v]) => [el('dt', { text: k }), el('dd', {}, v)])),
      inst.state === 'running' && !inst.watchable ? el('p', { class: 'none', text: 'connecting to the browser…' }) : null,
      worlds.length === 0 ? el('p', { class: 'none', text: 'No worlds and no pages yet.' }) : null,
      worlds.map((w) => worldBlock(inst, w)));
  }

  function worldBlock(inst, w) {
    const asked = requestFor(inst.id, w.name);
    const badges = [el('span', { class: 'badge', text: w.clients + (w.clients === 1 ? ' client' : ' clients') })];
    if (w.name === '') badges.length = 0;
    if (w.command) badges.push(el('span', { class: 'badge', text: 'runs ' + w.command }));
    if (w.holder) badges.push(el('span', { class: 'badge held', text: w.holder === you ? 'taken over by you' : 'taken over' }));
    if (asked) badges.push(el('span', { class: 'badge asked', text: 'needs a human' }));
    if (recorded.has(w.name)) {
      badges.push(el('button', {
        type: 'button', class: 'badge rec', 'data-focus': 'recording ' + w.name, 'aria-pressed': playback.world() === w.name ? 'true' : 'false',
        'aria-label': 'Play back the recording of world ' + w.name, text: 'Recording', onclick: () => openRecording(w.name),
      }));
    }
    // The world's journal (JSON lines): what its agents did.
    if (w.name !== '') badges.push(el('a', { class: 'badge', href: inst.endpoint + '/context/' + encodeURIComponent(w.name) + '/journal', target: '_blank', rel: 'noopener', text: 'journal' }));
    const pages = w.pages.length === 0 ? el('p', { class: 'none', text: 'No pages.' }) :
      el('ul', { class: 'pages' }, w.pages.map((p) => el('li', {}, pageButton(inst, w, p))));
    const dls = (w.downloads || []).length === 0 ? null :
      el('ul', { class: 'downloads', 'aria-label': 'Downloads' }, w.downloads.map((d) => el('li', { text: d.filename + ' — ' + d.state })));
    return el('section', { class: 'world' + (asked ? ' asked' : ''), 'data-world': w.name, 'aria-label': 'World ' + worldName(w.name) },
      el('div', { class: 'world-head' }, el('h3', { text: w.name === '' ? 'Pages of no world' : 'World ' + w.name }), badges),
      pages, dls);
  }

  function pageButton(inst, w, p) {
    const k = key(inst.id, p.id);
    const pressed = watching && watching.instance === inst.id && watching.page === p.id;
    return el('button', {
      type: 'button', class: 'pagebtn', 'data-focus': 'page ' + k, 'data-page': p.id, 'aria-pressed': pressed ? 'true' : 'false',
      'aria-label': 'Watch ' + (p.title || p.url) + ' in ' + worldName(w.name),
      onclick: () => watch(inst.id, p.id),
    },
    el('img', { class: 'thumb', 'data-key': k, alt: 'Thumbnail of ' + (p.title || p.url) }),
    el('span', { class: 'ptitle', text: p.title || '(untitled)' }),
    el('span', { class: 'purl', text: p.url }));
  }

  function openRecording(name) {
    playback.open(name);
    lastOverview = '';
    renderOverview();
    renderStage();
  }

  function watch(instance, page) {
    playback.close();
    watching = { instance, page };
    send({ type: 'watch', instance, page });
    const f = frames.get(key(instance, page));
    $('frame').src = f ? f.src : '';
    lastOverview = '';
    renderOverview();
    renderStage();
  }

  function tickUptimes() {
    for (const s of document.querySelectorAll('[data-started]')) {
      if (!s.dataset.started) { s.textContent = '—'; continue; }
      let t = Math.max(0, Math.floor((Date.now() - Date.parse(s.dataset.started)) / 1000));
      const h = Math.floor(t / 3600); t -= h * 3600;
      const m = Math.floor(t / 60);
      s.textContent = (h ? h + 'h ' : '') + (h || m ? m + 'm ' : '') + (t % 60) + 's';
    }
  }
  setInterval(tickUptimes, 1000);

  function renderRequests() {
    const worlds = state.instances.flatMap((i) => i.worlds.map((w) => [i.id, w.name]));
    const shown = JSON.stringify([state.requests, worlds]);
    if (shown === lastRequests) return;
    lastRequests = shown;
    const notes = {};
    for (const n of document.querySelectorAll('input[data-note]')) notes[n.dataset.note] = n.value;
    keepFocus(() => $('requests').replaceChildren(...state.requests.map((q) => requestCard(q, worlds, notes[q.id] || ''))));
  }

  function requestCard(q, worlds, note) {
    const noteId = 'note-' + q.id;
    let where;
    if (q.chosen) {
      where = el('span', { text: 'in ' + (q.world ? 'world ' + q.world : 'the whole browser') });
    } else {
      const sel = el('select', {
        id: 'where-' + q.id, 'data-focus': 'where ' + q.id,
        onchange: (e) => { const [instance, world] = JSON.parse(e.target.value); send({ type: 'assign', request: q.id, instance, world }); },
      }, worlds.map(([i, w]) => el('option', { value: JSON.stringify([i, w]), selected: i === q.instance && w === q.world, text: worldName(w) })));
      where = [el('label', { for: 'where-' + q.id, text: 'in' }), sel];
    }
    const watchIt = () => {
      const inst = state.instances.find((i) => i.id === q.instance);
      const w = inst && inst.worlds.find((x) => x.name === q.world);
      if (w && w.pages.length) watch(inst.id, w.pages[0].id);
    };
    return el('div', { class: 'request', role: 'alert', 'data-request': q.id },
      el('p', { class: 'reason' }, el('strong', { text: 'An agent needs a human: ' }), q.reason),
      where,
      el('button', { type: 'button', 'data-focus': 'watch ' + q.id, onclick: watchIt, text: 'Watch its page' }),
      el('label', { for: noteId, text: 'Note for the agent' }),
      el('input', { id: noteId, type: 'text', 'data-note': q.id, 'data-focus': 'note ' + q.id, value: note, autocomplete: 'off' }),
      el('button', {
        type: 'button', class: 'danger', 'data-focus': 'done ' + q.id, text: 'Done',
        onclick: () => send({ type: 'done', request: q.id, note: $(noteId).value }),
      }));
  }

  function renderEvents() {
    const list = [...state.events].reverse().map((e) => el('li', { class: 'ev-' + e.kind },
      el('time', { datetime: e.at, text: new Date(e.at).toLocaleTimeString() }), e.text));
    $('eventlist').replaceChildren(...list);
  }

  // driving says the human holds the watched page's world.
  function driving() {
    const f = findPage(watching);
    return !!(f && f.world.holder && f.world.holder === you);
  }

  function renderStage() {
    const f = findPage(watching);
    $('stage-empty').hidden = !!f || playback.isOpen();
    $('stage-page').hidden = !f || playback.isOpen();
    if (!f) return;
    $('stage-title').textContent = (f.page.title || f.page.url) + ' — ' + worldName(f.world.name);
    if (document.activeElement !== $('url')) $('url').value = f.page.url;
    const mine = f.world.holder === you;
    const other = f.world.holder && !mine;
    $('take').hidden = mine;
    $('take').disabled = !!other;
    $('handback').hidden = !mine;
    for (const id of ['back', 'forward', 'reload']) $(id).disabled = !mine;
    for (const e of document.querySelectorAll('#nav input, #nav button, #typeform input, #typeform button')) e.disabled = !mine;
    const note = $('held-note');
    note.hidden = !mine && !other;
    note.textContent = mine ? 'You drive this page: its agents\u2019 input and navigation wait until you hand it back. Esc leaves the page for the controls.' :
      other ? 'Another viewer has taken over this world.' : '';
    $('screen').classList.toggle('driving', mine);
  }

  function onFrame(m) {
    const k = key(m.instance, m.page);
    const f = { src: 'data:image/jpeg;base64,' + m.data, width: m.width, height: m.height };
    frames.set(k, f);
    const thumb = document.querySelector('img.thumb[data-key="' + CSS.escape(k) + '"]');
    if (thumb) thumb.src = f.src;
    if (watching && watching.instance === m.instance && watching.page === m.page) $('frame').src = f.src;
  }

  // Driving the page: its events as fractions of the frame shown.
  const img = $('frame');
  const screen = $('screen');
  const modifiers = (e) => (e.altKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0);
  const buttons = ['left', 'middle', 'right', 'back', 'forward'];
  function at(e) {
    const r = img.getBoundingClientRect();
    return { x: (e.clientX - r.left) / r.width, y: (e.clientY - r.top) / r.height };
  }
  function input(ev) {
    send({ type: 'input', instance: watching.instance, page: watching.page, input: ev });
  }
  function mouse(type) {
    return (e) => {
      if (!driving()) return;
      e.preventDefault();
      if (type === 'mousePressed') screen.focus();
      const p = at(e);
      input({ kind: 'mouse', type, x: p.x, y: p.y, button: type === 'mouseMoved' ? 'none' : buttons[e.button] || 'left',
        buttons: e.buttons, clickCount: e.detail || 1, modifiers: modifiers(e) });
    };
  }
  img.addEventListener('mousedown', mouse('mousePressed'));
  img.addEventListener('mouseup', mouse('mouseReleased'));
  let moved = null;
  img.addEventListener('mousemove', (e) => {
    if (!driving()) return;
    if (!moved) requestAnimationFrame(() => { mouse('mouseMoved')(moved); moved = null; });
    moved = e;
  });
  img.addEventListener('dragstart', (e) => e.preventDefault());
  img.addEventListener('wheel', (e) => {
    if (!driving()) return;
    e.preventDefault();
    const p = at(e);
    input({ kind: 'wheel', x: p.x, y: p.y, deltaX: e.deltaX, deltaY: e.deltaY, modifiers: modifiers(e) });
  }, { passive: false });
  function keyText(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return '';
    if (e.key.length === 1) return e.key;
    if (e.key === 'Enter') return '\r';
    return '';
  }
  function key_(type) {
    return (e) => {
      if (!driving()) return;
      if (e.key === 'Escape' && type === 'keyDown') { screen.blur(); $('handback').focus(); return; }
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'v') return; // the paste event sends the text
      e.preventDefault();
      input({ kind: 'key', type, key: e.key, code: e.code, keyCode: e.keyCode, text: type === 'keyDown' ? keyText(e) : '', modifiers: modifiers(e) });
    };
  }
  screen.addEventListener('keydown', key_('keyDown'));
  screen.addEventListener('keyup', key_('keyUp'));
  screen.addEventListener('paste', (e) => {
    if (!driving()) return;
    e.preventDefault();
    const text = e.clipboardData.getData('text');
    if (text) send({ type: 'text', instance: watching.instance, page: watching.page, text });
  });

  $('take').addEventListener('click', () => {
    const f = findPage(watching);
    if (f) send({ type: 'take', instance: f.inst.id, world: f.world.name });
  });
  $('handback').addEventListener('click', () => {
    const f = findPage(watching);
    if (f) send({ type: 'hand_back', instance: f.inst.id, world: f.world.name });
  });
  for (const id of ['back', 'forward', 'reload']) {
    $(id).addEventListener('click', () => send({ type: id, instance: watching.instance, page: watching.page }));
  }
  $('nav').addEventListener('submit', (e) => {
    e.preventDefault();
    send({ type: 'navigate', instance: watching.instance, page: watching.page, url: $('url').value });
    $('url').blur();
  });
  $('typeform').addEventListener('submit', (e) => {
    e.preventDefault();
    const t = $('typetext');
    if (t.value) send({ type: 'text', instance: watching.instance, page: watching.page, text: t.value });
    t.value = '';
  });

  connect();
})();
