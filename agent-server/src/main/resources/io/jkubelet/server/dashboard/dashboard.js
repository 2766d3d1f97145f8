// The node's dashboard: reads only the kubelet's own JSON endpoints, relative to where the page is served, so that
// it works on the node's ports and behind `kubectl proxy` alike. Charts are uPlot's (served from the jar).
'use strict';

const root = new URL('..', location.href);
const state = { pods: [], sortKey: 'name', sortDir: 1, filter: '', timer: null, logAborts: [] };
// Tests and curious operators read the drawn charts here.
window.jkDashboard = { charts: {} };

function url(path) {
  return new URL(path, root).toString();
}

async function getJson(path) {
  const r = await fetch(url(path), { credentials: 'same-origin' });
  if (!r.ok) {
    throw new Error(path + ': ' + r.status + ' ' + (await r.text()).trim());
  }
  return r.json();
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const c of children) {
    e.append(c instanceof Node ? c : document.createTextNode(c === undefined || c === null ? '' : String(c)));
  }
  return e;
}

function fill(tbody, rows) {
  tbody.replaceChildren(...rows);
}

function showError(e) {
  document.getElementById('error').textContent = e ? String(e.message || e) : '';
}

// ---- formatting ----

function bytes(n) {
  if (n === null || n === undefined) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (Math.abs(n) >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i === 0 ? n : n.toFixed(1)) + ' ' + units[i];
}

function cores(nano) {
  if (nano === null || nano === undefined) return '–';
  return Math.round(nano / 1e6) + 'm';
}

const BINARY_SUFFIXES = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };

/** A resource quantity as written by the node; byte amounts ("25276203008", "24683792Ki") read as bytes. */
function quantity(q, isBytes) {
  if (q === undefined || q === null) return '–';
  const m = String(q).match(/^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/);
  return isBytes && m ? bytes(Number(m[1]) * (m[2] ? BINARY_SUFFIXES[m[2]] : 1)) : String(q);
}

function age(since) {
  if (!since) return '–';
  const s = Math.max(0, Math.floor((Date.now() - Date.parse(since)) / 1000));
  if (s < 120) return s + 's';
  if (s < 7200) return Math.floor(s / 60) + 'm';
  if (s < 172800) return Math.floor(s / 3600) + 'h';
  return Math.floor(s / 86400) + 'd';
}

function ageSeconds(since) {
  return since ? (Date.now() - Date.parse(since)) / 1000 : -1;
}

function clock(iso) {
  return new Date(iso).toISOString().substring(11, 19);
}

// ---- charts ----

/** One uPlot chart of `history`'s columns; `series` are [label, column, scale] with scale turning a value into the unit. */
function chart(container, key, title, times, series, format) {
  const data = [times];
  for (const s of series) {
    data.push(s.values.map(v => (v === null || v === undefined ? null : v * (s.scale || 1))));
  }
  const width = Math.max(300, Math.min(560, container.clientWidth / 2 - 30));
  const opts = {
    width: width, height: 180,
    series: [{}].concat(series.map((s, i) => ({
      label: s.label, stroke: ['#2f6db5', '#c2452d', '#3c8d3c', '#8e44ad', '#d68a00'][i % 5], width: 1.5,
      value: (u, v) => (v === null ? '–' : format(v)),
    }))),
    axes: [{}, { values: (u, vals) => vals.map(format), size: 70 }],
    scales: { x: { time: true } },
    legend: { live: true },
  };
  let box = document.getElementById('chart-' + key);
  if (!box) {
    box = el('div', { class: 'chart', id: 'chart-' + key }, el('h3', {}, title));
    container.append(box);
  }
  const old = window.jkDashboard.charts[key];
  if (old && old.series.length === opts.series.length) {
    old.setData(data);
    return old;
  }
  if (old) old.destroy();
  const u = new uPlot(opts, data, box);
  window.jkDashboard.charts[key] = u;
  return u;
}

function usageCharts(container, prefix, label, h, withNetwork) {
  chart(container, prefix + '-cpu', label + ' CPU (cores)', h.time, [{ label: 'CPU', values: h.cpuNanoCores, scale: 1e-9 }],
    v => v.toFixed(3));
  chart(container, prefix + '-memory', label + ' memory (working set)', h.time,
    [{ label: 'memory', values: h.memoryWorkingSetBytes }], bytes);
  if (withNetwork) {
    chart(container, prefix + '-network', label + ' network (per second)', h.time,
      [{ label: 'received', values: h.rxBytesPerSecond }, { label: 'sent', values: h.txBytesPerSecond }], bytes);
  }
  chart(container, prefix + '-fs', label + ' file system used', h.time, [{ label: 'used', values: h.fsUsedBytes }], bytes);
}

// ---- node view ----

async function loadNode() {
  const [node, summary, podList] = await Promise.all([
    getJson('dashboard/api/node').catch(() => null),
    getJson('stats/summary').catch(() => null),
    getJson('pods'),
  ]);
  renderNodeInfo(node, summary);
  renderResources(node, summary, podList);
  renderConditions(node);
  renderPods(podList, summary);
  const history = await getJson('stats/history').catch(() => null);
  if (history) {
    usageCharts(document.getElementById('node-charts'), 'node', 'node', history, true);
  }
}

function renderNodeInfo(node, summary) {
  const info = (node && node.status && node.status.nodeInfo) || {};
  const name = (node && node.metadata.name) || (summary && summary.node.nodeName) || '';
  document.getElementById('node-name').textContent = name;
  document.title = name + ' · jkubelet dashboard';
  const rows = [
    ['name', name],
    ['kubelet', info.kubeletVersion],
    ['runtime', info.containerRuntimeVersion],
    ['OS', [info.osImage, info.kernelVersion].filter(x => x).join(', ')],
    ['booted', summary && summary.node.startTime ? age(summary.node.startTime) + ' ago' : undefined],
  ];
  fill(document.querySelector('#node-info tbody'),
    rows.filter(r => r[1]).map(r => el('tr', {}, el('th', {}, r[0]), el('td', {}, r[1]))));
}

function renderResources(node, summary, podList) {
  const cap = (node && node.status && node.status.capacity) || {};
  const alloc = (node && node.status && node.status.allocatable) || {};
  const n = summary ? summary.node : {};
  const pods = (podList.items || []).length;
  const rows = [
    ['cpu', cap.cpu, alloc.cpu, n.cpu ? cores(n.cpu.usageNanoCores) : '–'],
    ['memory', cap.memory, alloc.memory, n.memory ? bytes(n.memory.workingSetBytes) : '–'],
    ['ephemeral-storage', cap['ephemeral-storage'], alloc['ephemeral-storage'], n.fs ? bytes(n.fs.usedBytes) : '–'],
    ['pods', cap.pods, alloc.pods, pods],
    ['PIDs', n.rlimit ? n.rlimit.maxpid : undefined, '–', n.rlimit ? n.rlimit.curproc : '–'],
  ];
  fill(document.querySelector('#resources tbody'), rows.map(r => {
    const isBytes = r[0] === 'memory' || r[0] === 'ephemeral-storage';
    return el('tr', {}, el('th', {}, r[0]), el('td', { class: 'num' }, quantity(r[1], isBytes)),
      el('td', { class: 'num' }, quantity(r[2], isBytes)), el('td', { class: 'num' }, r[3]));
  }));
}

function renderConditions(node) {
  const conditions = (node && node.status && node.status.conditions) || [];
  fill(document.querySelector('#conditions tbody'), conditions.map(c => {
    // Pressure is bad when True; Ready is bad when not True.
    const bad = c.type === 'Ready' ? c.status !== 'True' : c.status === 'True';
    return el('tr', {}, el('td', {}, c.type), el('td', { class: bad ? 'status-True bad' : '' }, c.status),
      el('td', {}, c.reason), el('td', {}, c.message), el('td', {}, age(c.lastTransitionTime)));
  }));
}

function qosOf(pod) {
  return (pod.status && pod.status.qosClass) || '';
}

function renderPods(podList, summary) {
  const usage = new Map();
  for (const p of (summary && summary.pods) || []) {
    usage.set(p.podRef.namespace + '/' + p.podRef.name, p);
  }
  state.pods = (podList.items || []).map(p => {
    const key = p.metadata.namespace + '/' + p.metadata.name;
    const s = p.status || {};
    const statuses = (s.containerStatuses || []).concat(s.initContainerStatuses || []);
    const u = usage.get(key);
    const since = s.startTime || p.metadata.creationTimestamp;
    return {
      key: key, name: key, phase: s.phase || 'Pending', qos: qosOf(p),
      restarts: statuses.reduce((n, c) => n + (c.restartCount || 0), 0),
      age: ageSeconds(since), since: since,
      cpu: u && u.cpu ? u.cpu.usageNanoCores : null, memory: u && u.memory ? u.memory.workingSetBytes : null,
    };
  });
  drawPods();
}

function drawPods() {
  const f = state.filter.toLowerCase();
  const rows = state.pods
    .filter(p => !f || [p.name, p.phase, p.qos].some(x => x.toLowerCase().includes(f)))
    .sort((a, b) => {
      const x = a[state.sortKey], y = b[state.sortKey];
      const c = typeof x === 'number' || typeof y === 'number' ? (x === null ? -1 : x) - (y === null ? -1 : y)
        : String(x).localeCompare(String(y));
      return c * state.sortDir || a.name.localeCompare(b.name);
    });
  document.getElementById('pod-count').textContent = '(' + rows.length + ' of ' + state.pods.length + ')';
  fill(document.querySelector('#pods-table tbody'), rows.map(p => el('tr', { 'data-pod': p.key },
    el('td', {}, el('a', { href: '#/pod/' + p.key }, p.name)),
    el('td', { class: 'phase-' + p.phase }, p.phase), el('td', {}, p.qos),
    el('td', { class: 'num' }, p.restarts), el('td', { class: 'num' }, age(p.since)),
    el('td', { class: 'num' }, cores(p.cpu)), el('td', { class: 'num' }, bytes(p.memory)))));
  for (const th of document.querySelectorAll('#pods-table th')) {
    th.classList.toggle('asc', th.dataset.key === state.sortKey && state.sortDir > 0);
    th.classList.toggle('desc', th.dataset.key === state.sortKey && state.sortDir < 0);
  }
}

// ---- pod view ----

async function loadPod(namespace, name) {
  document.getElementById('pod-title').textContent = namespace + '/' + name;
  const timeline = await getJson('debug/pods/' + encodeURIComponent(namespace) + '/' + encodeURIComponent(name) + '/timeline');
  document.getElementById('pod-phase').textContent = timeline.phase ? 'phase ' + timeline.phase : 'not on the node any more';
  document.getElementById('pod-phase').className = 'phase-' + (timeline.phase || 'Unknown');
  fill(document.getElementById('waiting'), timeline.waiting.map(w => el('li', { 'data-container': w.container },
    w.container + ': ' + w.text)));
  fill(document.querySelector('#timeline tbody'), timeline.entries.map(e => el('tr', {
    'data-reason': e.reason, 'data-exit-code': e.exitCode, 'data-container': e.container, class: e.type,
  },
  el('td', {}, clock(e.time) + (e.count > 1 ? ' … ' + clock(e.lastTime) + ' (×' + e.count + ')' : '')),
  el('td', {}, e.type), el('td', {}, e.reason), el('td', {}, e.container || ''), el('td', {}, e.message))));

  if (!document.querySelector('#logs h3')) {
    const podList = await getJson('pods');
    const spec = ((podList.items || []).find(p => p.metadata.namespace === namespace && p.metadata.name === name) || {}).spec;
    if (spec) {
      startLogs(namespace, name, (spec.initContainers || []).concat(spec.containers || []).map(c => c.name));
    }
  }
  const pod = 'pod=' + encodeURIComponent(namespace + '/' + name);
  const charts = document.getElementById('pod-charts');
  const podHistory = await getJson('stats/history?' + pod).catch(() => null);
  if (!podHistory) {
    charts.replaceChildren(el('p', { class: 'muted' }, 'no usage recorded for this pod yet (stats rounds run every 10 s)'));
    return;
  }
  if (charts.querySelector('p.muted')) charts.replaceChildren();
  usageCharts(charts, 'pod', 'pod', podHistory, true);
  for (const c of podHistory.containers) {
    const h = await getJson('stats/history?' + pod + '&container=' + encodeURIComponent(c));
    usageCharts(charts, 'container-' + c, c, h, false);
  }
}

function startLogs(namespace, name, containers) {
  const logs = document.getElementById('logs');
  logs.replaceChildren();
  for (const c of containers) {
    const follow = el('input', { type: 'checkbox', id: 'follow-' + c });
    const pre = el('pre', { class: 'log', id: 'log-' + c });
    logs.append(el('h3', {}, c, ' ', el('label', {}, follow, ' follow')), pre);
    const path = 'containerLogs/' + [namespace, name, c].map(encodeURIComponent).join('/') + '?tailLines=100';
    readLog(pre, path, false);
    follow.addEventListener('change', () => {
      if (follow.checked) {
        readLog(pre, path + '&follow=true', true);
      } else {
        state.logAborts.forEach(a => a.abort());
        state.logAborts = [];
      }
    });
  }
}

async function readLog(pre, path, follow) {
  const abort = new AbortController();
  state.logAborts.push(abort);
  try {
    const r = await fetch(url(path), { signal: abort.signal, credentials: 'same-origin' });
    if (!r.ok) {
      pre.textContent = 'logs: ' + r.status + ' ' + (await r.text()).trim();
      return;
    }
    const reader = r.body.getReader();
    const decoder = new TextDecoder();
    pre.textContent = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const atEnd = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 5;
      pre.textContent += decoder.decode(value, { stream: true });
      if (follow && atEnd) pre.scrollTop = pre.scrollHeight;
    }
  } catch (e) {
    if (e.name !== 'AbortError') pre.textContent += '\n[' + e.message + ']';
  }
}

// ---- routing and refresh ----

function route() {
  clearTimeout(state.timer);
  state.logAborts.forEach(a => a.abort());
  state.logAborts = [];
  for (const [k, u] of Object.entries(window.jkDashboard.charts)) {
    u.destroy();
    delete window.jkDashboard.charts[k];
  }
  document.getElementById('node-charts').replaceChildren();
  document.getElementById('pod-charts').replaceChildren();
  document.getElementById('logs').replaceChildren();
  const m = location.hash.match(/^#\/pod\/([^/]+)\/([^/]+)$/);
  document.getElementById('node-view').hidden = !!m;
  document.getElementById('pod-view').hidden = !m;
  const load = m ? () => loadPod(decodeURIComponent(m[1]), decodeURIComponent(m[2])) : loadNode;
  const tick = async () => {
    try {
      await load();
      showError(null);
      document.getElementById('refreshed').textContent = 'updated ' + new Date().toLocaleTimeString();
      document.body.dataset.loaded = 'true';
    } catch (e) {
      showError(e);
    }
    state.timer = setTimeout(tick, m ? 5000 : 10000);
  };
  tick();
}

document.getElementById('pod-filter').addEventListener('input', e => {
  state.filter = e.target.value;
  drawPods();
});
for (const th of document.querySelectorAll('#pods-table th')) {
  th.addEventListener('click', () => {
    state.sortDir = state.sortKey === th.dataset.key ? -state.sortDir : 1;
    state.sortKey = th.dataset.key;
    drawPods();
  });
}
window.addEventListener('hashchange', route);
route();
