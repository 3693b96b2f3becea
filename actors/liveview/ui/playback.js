// The playback of a recorded world in the live view: GET
// /cdpvisor/worlds/NAME/recording lists its frames' times, its actions and
// its events; the human scrubs a timeline (or plays it at 1×, 2× or 4×),
// sees the page's frame of that moment (…/recording/frame, fetched as
// images and kept), the actions and events beside it, and downloads the
// trace. app.js opens it from a world's "Recording" button.
'use strict';
window.cdpvisorPlayback = ({ $, el, token, onClose }) => {
  let world = null; // the world shown, or null: the panel is closed
  let rec = null; // the recording, in milliseconds (shape)
  let page = ''; // the page whose frames are shown
  let cur = 0; // the moment shown, ms after rec.start
  let playing = false;
  let last = 0; // the previous animation tick
  let shown = { frame: '', action: -1, event: -1 };
  const images = new Map(); // frame URL -> Image: each fetched once
  const ahead = 12; // frames fetched ahead of the one shown

  // url gives a path the token, as the page's other requests carry it.
  function url(path, params) {
    const q = new URLSearchParams(params || {});
    if (token) q.set('token', token);
    const s = q.toString();
    return path + (s ? '?' + s : '');
  }
  const base = (w) => '/cdpvisor/worlds/' + encodeURIComponent(w);
  // Go's RFC 3339 times have nanoseconds: Date.parse is only sure of three digits.
  const parseTime = (s) => (!s || s.startsWith('0001-') ? null : Date.parse(s.replace(/(\.\d{3})\d+/, '$1')));
  const titled = (title, params) => title.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? params[k] : m));
  const offset = (ms) => (ms < 0 ? '-' : '+') + (Math.abs(ms) / 1000).toFixed(1) + ' s';
  const byAt = (a, b) => a.at - b.at;

  // latest is the index of the last item at or before at (-1: none).
  function latest(list, at) {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].at <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  // shape turns the answer into lists sorted by time in milliseconds.
  function shape(w, r) {
    const pages = new Map();
    for (const f of r.frames) {
      if (!pages.has(f.page)) pages.set(f.page, []);
      // t (Unix ns) is past a double's exact integers: ask from a
      // microsecond before it, as the endpoint answers the page's first
      // frame at or after t (frames are milliseconds apart).
      pages.get(f.page).push({ at: f.t / 1e6, src: url(base(w) + '/recording/frame', { page: f.page, t: String(f.t - 1000) }) });
    }
    const actions = r.actions.map((a) => ({
      at: parseTime(a.Start), end: parseTime(a.End), page: a.Page || '', method: a.Method,
      text: titled(a.Title || a.Method, a.Params), client: a.Client || '', error: a.Error || '',
    })).filter((a) => a.at !== null).sort(byAt);
    const events = r.events.map((e) => ({ at: e.t / 1e6, page: e.page || '', kind: e.kind, text: e.text })).sort(byAt);
    let start = Infinity;
    let end = -Infinity;
    for (const x of [...[...pages.values()].flat(), ...actions, ...events]) {
      start = Math.min(start, x.at);
      end = Math.max(end, x.end || x.at);
    }
    for (const list of pages.values()) list.sort(byAt);
    return start === Infinity ? { pages, actions, events, start: 0, end: 0 } : { pages, actions, events, start, end };
  }

  // pageName says a page by the first address it went to.
  function pageName(id, i) {
    const nav = rec.events.find((e) => e.page === id && e.kind === 'navigation');
    return 'Page ' + (i + 1) + (nav ? ' — ' + nav.text : '');
  }

  async function open(w, keep) {
    pause();
    world = w;
    $('playback').hidden = false;
    $('pb-title').textContent = 'Recording of world ' + w;
    $('pb-trace').href = url(base(w) + '/trace');
    $('pb-note').textContent = 'Reading the recording…';
    let r;
    try {
      const resp = await fetch(url(base(w) + '/recording'), { cache: 'no-store' });
      if (!resp.ok) throw new Error((await resp.text()).trim() || resp.statusText);
      r = await resp.json();
    } catch (e) {
      if (world === w) $('pb-note').textContent = 'The recording cannot be read: ' + e.message;
      return;
    }
    if (world !== w) return; // closed, or another opened meanwhile
    rec = shape(w, r);
    if (!keep || !rec.pages.has(page)) {
      // The page with the most frames: the one the agent worked in.
      page = [...rec.pages.keys()].sort((a, b) => rec.pages.get(b).length - rec.pages.get(a).length)[0] || '';
      cur = 0;
    }
    cur = Math.min(cur, rec.end - rec.start);
    $('pb-note').textContent = note(r);
    const ids = [...rec.pages.keys()];
    $('pb-pages').hidden = ids.length < 2;
    $('pb-page').replaceChildren(...ids.map((id, i) => el('option', { value: id, selected: id === page, text: pageName(id, i) })));
    // An arrow key moves a thousandth of the span (10 ms at least); the
    // end is a step, so that it can be reached.
    const step = Math.max(10, Math.round((rec.end - rec.start) / 1000));
    $('pb-range').step = String(step);
    $('pb-range').max = String(step * Math.ceil((rec.end - rec.start) / step));
    renderMarks();
    renderLists();
    shown = { frame: '', action: -1, event: -1 };
    render();
  }

  function note(r) {
    const n = [...rec.pages.values()].reduce((s, l) => s + l.length, 0);
    const parts = [n + ' frames, ' + rec.actions.length + ' actions, ' + rec.events.length + ' events over ' +
      ((rec.end - rec.start) / 1000).toFixed(1) + ' s' + (r.recorded ? ' (still recording: Refresh for the newest)' : '') + '.'];
    if (r.dropped_bytes > 0) parts.push('The oldest part was dropped to keep the recording within its cap.');
    if (r.cut) parts.push('The newest part is not listed here; the trace has it all.');
    if (n === 0) parts.push('No frame was recorded.');
    return parts.join(' ');
  }

  // renderMarks puts a tick on the timeline for each action and event.
  function renderMarks() {
    const span = rec.end - rec.start || 1;
    const mark = (x, cls, title) => {
      const m = el('span', { class: 'mark ' + cls, title });
      m.style.left = (100 * (x.at - rec.start) / span).toFixed(3) + '%'; // the CSSOM: no inline style for the CSP
      return m;
    };
    const thin = (list) => list.filter((_, i) => i % Math.ceil(list.length / 1500) === 0); // a few thousand at most
    fill('pb-marks', [...thin(rec.actions).map((a) => mark(a, 'act' + (a.error ? ' failed' : ''), a.text)),
      ...thin(rec.events).map((e) => mark(e, 'evm ev-' + e.kind, e.kind + ': ' + e.text))]);
  }

  function item(x, i, body) {
    return el('li', { 'data-i': String(i) }, el('button', {
      type: 'button', class: 'pb-item', onclick: () => seek(x),
    }, el('time', { text: offset(x.at - rec.start) }), body));
  }

  // fill puts items in a list one by one: tens of thousands are too many
  // for one call's arguments.
  function fill(id, items) {
    const frag = document.createDocumentFragment();
    for (const x of items) frag.appendChild(x);
    $(id).replaceChildren(frag);
  }

  function renderLists() {
    fill('pb-actions', rec.actions.map((a, i) => item(a, i, [
      el('span', { class: 'pb-text', text: a.text }),
      a.client ? el('span', { class: 'pb-client', text: a.client }) : null,
      a.error ? el('span', { class: 'pb-error', text: a.error }) : null])));
    fill('pb-events', rec.events.map((e, i) => item(e, i, [
      el('span', { class: 'pb-kind ev-' + e.kind, text: e.kind }), el('span', { class: 'pb-text', text: e.text })])));
  }

  // seek goes to an action or event, on its page when it has frames.
  function seek(x) {
    if (x.page && x.page !== page && rec.pages.has(x.page)) {
      page = x.page;
      $('pb-page').value = page;
    }
    cur = x.at - rec.start;
    render();
  }

  // highlight marks the list's current item and keeps it in sight.
  function highlight(listId, i, was) {
    const list = $(listId);
    if (was >= 0 && list.children[was]) list.children[was].removeAttribute('aria-current');
    const li = list.children[i];
    if (!li) return;
    li.setAttribute('aria-current', 'true');
    if (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = li.offsetTop - list.clientHeight / 3;
    }
  }

  function fetchFrame(f) {
    if (!images.has(f.src)) {
      const im = new Image();
      im.src = f.src;
      images.set(f.src, im);
    }
  }

  function render() {
    if (!rec) return;
    const at = rec.start + cur;
    $('pb-range').value = String(Math.round(cur));
    $('pb-time').textContent = offset(cur) + ' of ' + offset(rec.end - rec.start).slice(1) + ' · ' + new Date(at).toLocaleTimeString();
    const frames = rec.pages.get(page) || [];
    const fi = latest(frames, at);
    const f = frames[Math.max(fi, 0)];
    for (let i = Math.max(fi, 0); i < Math.min(frames.length, fi + 1 + ahead); i++) fetchFrame(frames[i]);
    const src = f ? f.src : '';
    if (src !== shown.frame) {
      shown.frame = src;
      $('pb-frame').src = src;
    }
    // Before the page's first frame the first is shown, dimmed.
    $('pb-frame').classList.toggle('early', fi < 0);
    const ai = latest(rec.actions, at);
    if (ai !== shown.action) { highlight('pb-actions', ai, shown.action); shown.action = ai; }
    const ei = latest(rec.events, at);
    if (ei !== shown.event) { highlight('pb-events', ei, shown.event); shown.event = ei; }
  }

  function tick(now) {
    if (!playing || !rec) return;
    const span = rec.end - rec.start;
    cur = Math.min(span, cur + (now - last) * Number($('pb-speed').value));
    last = now;
    render();
    if (cur >= span) pause();
    else requestAnimationFrame(tick);
  }

  function play() {
    if (!rec) return;
    if (cur >= rec.end - rec.start) cur = 0;
    playing = true;
    last = performance.now();
    $('pb-play').textContent = 'Pause';
    $('pb-play').setAttribute('aria-pressed', 'true');
    requestAnimationFrame(tick);
  }

  function pause() {
    playing = false;
    $('pb-play').textContent = 'Play';
    $('pb-play').setAttribute('aria-pressed', 'false');
  }

  function close() {
    if (world === null) return;
    pause();
    world = null;
    rec = null;
    images.clear();
    $('playback').hidden = true;
    $('pb-frame').removeAttribute('src');
    shown.frame = '';
    onClose();
  }

  $('pb-play').addEventListener('click', () => (playing ? pause() : play()));
  $('pb-range').addEventListener('input', (e) => {
    if (rec) cur = Math.min(Number(e.target.value), rec.end - rec.start);
    render();
  });
  $('pb-page').addEventListener('change', (e) => {
    page = e.target.value;
    render();
  });
  $('pb-refresh').addEventListener('click', () => world !== null && open(world, true));
  $('pb-close').addEventListener('click', close);

  return { open: (w) => open(w, false), close, isOpen: () => world !== null, world: () => world };
};
