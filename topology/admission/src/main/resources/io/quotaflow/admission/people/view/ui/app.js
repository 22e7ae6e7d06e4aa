// quotaflow's web view: the quota tree of one cluster, rendered lazily (a parent's children are
// read only when it is expanded, PAGE rows at a time), kept live by the server's event stream
// (only changed rows arrive), with the group detail and its usage over time (an SVG chart of the
// engine's history, read when the detail is opened or its period is chosen), recent activity, the
// what-if panel and, per group and resource, a "why" panel that reads the runtime's explanation
// when it is opened.
'use strict';

(function () {
  const PAGE = 500;
  const ROOT = 'koordinator-root-quota';
  const state = {
    cluster: null,
    rows: new Map(), // name -> {row, el}
    expanded: new Set(),
    selected: null,
    clockOffset: 0, // server clock minus this browser's
    revokeDelay: null,
    events: null,
    treeStarted: false,
    queue: Promise.resolve(),
    edits: [],
    firstPaint: false,
    why: null, // the open why panel: {name, resource, panel}
    keptStep: null, // the engine's history step in ms, from its first history answer
    history: { name: null, range: 'hour', resource: null, answer: null, readAt: null, reading: 0 },
  };

  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  };
  const api = (path) => '/api/v1/clusters/' + encodeURIComponent(state.cluster) + path;

  async function getJson(url, init) {
    const response = await fetch(url, Object.assign({ headers: { Accept: 'application/json' } }, init));
    const body = await response.json().catch(() => ({ error: 'unreadable answer' }));
    if (!response.ok) {
      const error = new Error(body.error || response.status + ' ' + response.statusText);
      error.status = response.status;
      throw error;
    }
    return body;
  }

  function seconds(ms) {
    const s = Math.max(0, Math.round(ms / 1000));
    return s < 120 ? s + ' s' : Math.round(s / 60) + ' min';
  }

  function amount(dim, key) {
    const text = dim.text[key];
    return dim.unit && text !== '-' && text !== 'unbounded' ? text + ' ' + dim.unit : text;
  }

  // Every change of the tree's structure (loading, expanding, reloading) runs after the one before:
  // two loads of the same children at once would interleave their rows.
  function enqueue(task) {
    const run = state.queue.then(task).catch(showError);
    state.queue = run;
    return run;
  }

  // --- the tree --------------------------------------------------------------------------------

  function bar(dim) {
    const values = [dim.min, dim.request, dim.used, dim.runtime, dim.max].filter((v) => v !== null);
    const scale = Math.max(1, ...values);
    const pct = (v) => Math.min(100, (100 * v) / scale) + '%';
    const node = el('div', 'bar');
    node.setAttribute('role', 'img');
    node.setAttribute('aria-label', describe(dim));
    const runtime = el('div', 'runtime');
    runtime.style.width = pct(dim.runtime || 0);
    node.appendChild(runtime);
    const used = el('div', 'used' + ((dim.used || 0) > (dim.runtime || 0) ? ' over' : ''));
    used.style.width = pct(dim.used || 0);
    node.appendChild(used);
    for (const [key, cls] of [['min', 'mark min'], ['request', 'mark request'], ['max', 'mark max']]) {
      if (dim[key] !== null) {
        const mark = el('div', cls);
        mark.style.left = pct(dim[key]);
        mark.title = key + ' ' + amount(dim, key);
        node.appendChild(mark);
      }
    }
    return node;
  }

  function describe(dim) {
    return 'used ' + amount(dim, 'used') + ' of runtime ' + amount(dim, 'runtime') +
      '; min ' + amount(dim, 'min') + ', max ' + amount(dim, 'max') + ', request ' + amount(dim, 'request');
  }

  function overText(row) {
    const over = 'over its runtime in ' + row.over.join(', ');
    if (row.overSince === null) return over;
    const now = Date.now() + state.clockOffset;
    const text = over + ' for ' + seconds(now - row.overSince);
    return state.revokeDelay === null ? text + ' (reclaim off)'
      : text + ' of the ' + seconds(state.revokeDelay) + ' revoke delay';
  }

  function rowContent(row) {
    const head = el('div', 'row');
    const toggle = el('button', 'toggle', state.expanded.has(row.name) ? '▾' : '▸');
    toggle.type = 'button';
    toggle.disabled = row.children === 0;
    toggle.setAttribute('aria-expanded', String(state.expanded.has(row.name)));
    toggle.setAttribute('aria-label', (state.expanded.has(row.name) ? 'collapse ' : 'expand ') + row.name);
    toggle.addEventListener('click', () => enqueue(() => toggleGroup(row.name)));
    head.appendChild(toggle);
    const name = el('button', 'name', row.name);
    name.type = 'button';
    name.addEventListener('click', () => select(row.name));
    head.appendChild(name);
    if (row.special) head.appendChild(el('span', 'badge special', 'special: ' + row.special));
    if (row.treeRoot) {
      const tree = el('span', 'badge tree', 'root of quota tree ' + row.tree);
      tree.dataset.tree = row.tree;
      head.appendChild(tree);
    }
    if (row.isParent) head.appendChild(el('span', 'badge', 'parent · ' + row.children + ' children'));
    if (!row.valid) head.appendChild(el('span', 'badge invalid', '✖ INVALID: ' + (row.reason || '')));
    else if (row.reason) head.appendChild(el('span', 'badge', row.reason));
    if (row.lends.length) head.appendChild(el('span', 'badge', 'LENDS ' + row.lends.join(', ')));
    if (row.borrows.length) head.appendChild(el('span', 'badge', 'BORROWS ' + row.borrows.join(', ')));
    if (row.reservation) {
      const mark = el('span', 'badge' + (row.reservation.satisfied ? '' : ' invalid'), '⚑ ' + row.reservation.text);
      mark.title = row.reservation.nodes.join(', ');
      mark.dataset.reservation = String(row.reservation.satisfied);
      head.appendChild(mark);
    }
    if (row.over.length) {
      const over = el('span', 'badge over', '⚠ OVER: ' + overText(row));
      over.dataset.over = 'true';
      head.appendChild(over);
    }
    const dims = el('div', 'dims');
    for (const dim of row.dims) {
      const line = el('div', 'dim');
      line.dataset.resource = dim.resource;
      line.dataset.runtime = dim.runtime === null ? '' : String(dim.runtime);
      line.dataset.used = dim.used === null ? '' : String(dim.used);
      line.appendChild(el('span', 'res', dim.resource + (dim.unit ? ' (' + dim.unit + ')' : '')));
      const nums = el('span', 'nums');
      nums.appendChild(document.createTextNode('used ' + dim.text.used + ' / runtime '));
      nums.appendChild(el('span', 'runtime-text', dim.text.runtime));
      line.appendChild(nums);
      line.appendChild(bar(dim));
      line.appendChild(whyButton(row.name, dim.resource));
      line.title = describe(dim);
      dims.appendChild(line);
    }
    return [head, dims];
  }

  function render(row) {
    const known = state.rows.get(row.name);
    if (known) {
      known.row = row;
      // A live update draws the row anew: a why button that had the keyboard's focus keeps it,
      // or the focus would fall to the page at every update.
      const focused = document.activeElement;
      const refocus = focused && focused.classList.contains('why') &&
        known.el.children[1].contains(focused) ? focused.dataset.resource : null;
      const [head, dims] = rowContent(row);
      known.el.replaceChild(head, known.el.children[0]);
      known.el.replaceChild(dims, known.el.children[1]);
      if (refocus !== null) {
        const button = whyButtonOf(row.name, refocus);
        if (button) button.focus();
      }
      return known.el;
    }
    const group = el('div', 'group');
    group.setAttribute('role', 'treeitem');
    group.dataset.name = row.name;
    const [head, dims] = rowContent(row);
    group.appendChild(head);
    group.appendChild(dims);
    const children = el('div', 'children');
    children.setAttribute('role', 'group');
    group.appendChild(children);
    state.rows.set(row.name, { row: row, el: group });
    if (state.selected === row.name) group.classList.add('selected');
    return group;
  }

  // A group's element holds its row, its bars, an open why panel if any, then its children's box.
  const childBox = (group) => group.querySelector(':scope > .children');

  function forget(node) {
    for (const item of node.querySelectorAll('.group')) state.rows.delete(item.dataset.name);
    state.rows.delete(node.dataset.name);
    node.remove();
  }

  async function loadChildren(name, offset) {
    const box = childBox(state.rows.get(name).el);
    const page = await getJson(api('/view/rows?parent=' + encodeURIComponent(name) +
      '&offset=' + offset + '&limit=' + PAGE));
    const more = box.querySelector(':scope > .more');
    if (more) more.remove();
    if (offset === 0) {
      // Read again: known rows are updated in place (keeping what is expanded below them).
      const names = new Set(page.rows.map((row) => row.name));
      for (const child of Array.from(box.children)) {
        if (!names.has(child.dataset.name)) forget(child);
      }
    }
    for (const row of page.rows) box.appendChild(render(row));
    const shown = offset + page.rows.length;
    if (shown < page.total) {
      const more = el('button', 'more', 'show ' + Math.min(PAGE, page.total - shown) + ' more of ' +
        (page.total - shown) + ' remaining');
      more.type = 'button';
      more.addEventListener('click', () => enqueue(() => loadChildren(name, shown)));
      box.appendChild(more);
    }
    for (const row of page.rows) {
      if (state.expanded.has(row.name)) await loadChildren(row.name, 0);
    }
  }

  async function toggleGroup(name) {
    const known = state.rows.get(name);
    if (!known) return;
    if (state.expanded.has(name)) {
      state.expanded.delete(name);
      for (const child of Array.from(childBox(known.el).children)) {
        if (child.classList.contains('group')) forget(child); else child.remove();
      }
      render(known.row);
    } else {
      state.expanded.add(name);
      render(known.row);
      await loadChildren(name, 0);
    }
  }

  // Reads the rows shown again (the top rows, then every expanded parent's children), updating the
  // rows in place, so the page never shows a half-read tree.
  async function loadTree() {
    state.treeStarted = true;
    const tree = $('tree');
    const top = await getJson(api('/view/rows'));
    const names = new Set(top.rows.map((row) => row.name));
    for (const child of Array.from(tree.children)) {
      if (!names.has(child.dataset.name)) forget(child);
    }
    if (!state.firstPaint && names.has(ROOT)) state.expanded.add(ROOT);
    for (const row of top.rows) {
      const node = render(row);
      if (node.parentNode !== tree) tree.appendChild(node);
    }
    for (const row of top.rows) {
      if (state.expanded.has(row.name)) await loadChildren(row.name, 0);
    }
    if (!state.firstPaint) {
      state.firstPaint = true;
      // The first rows are in the document; the next frame is their first paint.
      requestAnimationFrame(() => performance.mark('quotaflow-tree-painted'));
    }
    refreshGroupList();
  }

  function refreshGroupList() {
    const list = $('wi-groups');
    list.textContent = '';
    for (const [name, known] of state.rows) {
      if (!known.row.special) {
        const option = el('option');
        option.value = name;
        list.appendChild(option);
      }
    }
  }

  function applyChanges(change) {
    const reload = new Set();
    for (const row of change.rows) {
      if (state.rows.has(row.name)) {
        const before = state.rows.get(row.name).row;
        render(row);
        if (state.expanded.has(row.name) && before.children !== row.children) reload.add(row.name);
      } else if (state.expanded.has(row.parent) && state.rows.has(row.parent)) {
        reload.add(row.parent);
      }
      if (state.selected === row.name) loadDetail(row.name);
    }
    for (const name of change.removed) {
      const known = state.rows.get(name);
      if (known) forget(known.el);
    }
    for (const name of reload) {
      enqueue(() => (state.rows.has(name) && state.expanded.has(name) ? loadChildren(name, 0) : null));
    }
  }

  // --- detail, activity, status ----------------------------------------------------------------

  function select(name) {
    const old = state.rows.get(state.selected);
    if (old) old.el.classList.remove('selected');
    state.selected = name;
    const now = state.rows.get(name);
    if (now) now.el.classList.add('selected');
    $('wi-group').value = name;
    loadDetail(name);
    loadHistory(name);
  }

  function table(headers, rows) {
    const node = el('table');
    const head = el('tr');
    headers.forEach((h) => head.appendChild(el('th', null, h)));
    node.appendChild(head);
    for (const cells of rows) {
      const tr = el('tr');
      cells.forEach((c) => tr.appendChild(el('td', null, c)));
      node.appendChild(tr);
    }
    return node;
  }

  // A group's gangs (docs/semantics.md 21.4): members against minMember, and the state in words,
  // so that a gang evicted whole or waiting for room reads as one job, not as scattered pods.
  function gangTable(detail, text) {
    const node = table(['gang', 'members / minMember', 'running', 'pending', 'state', 'room held'], []);
    node.id = 'gangs';
    for (const g of detail.gangs) {
      const tr = el('tr', 'gang-' + g.state);
      tr.dataset.gang = g.namespace + '/' + g.name;
      tr.dataset.state = g.state;
      const cells = [
        g.namespace + '/' + g.name + ' (' + g.convention + ')',
        g.members + ' / ' + (g.minMember === null ? '? (unknown)' : g.minMember),
        String(g.running),
        String(g.pending) + (g.terminating ? ' (' + g.terminating + ' terminating)' : ''),
        g.state,
        g.held ? 'for ' + g.held.membersToCome + ' more: ' + text(g.held.text) + ', expires in ' +
          seconds(g.held.expiresAt - detail.now) : '-'];
      cells.forEach((c) => tr.appendChild(el('td', null, c)));
      node.appendChild(tr);
    }
    return node;
  }

  async function loadDetail(name) {
    const body = $('detail-body');
    try {
      const detail = await getJson(api('/view/groups/' + encodeURIComponent(name)));
      body.textContent = '';
      $('detail-title').textContent = 'Group ' + name;
      const g = detail.group;
      body.appendChild(el('p', null, (g.valid ? 'valid' : '✖ invalid: ' + g.reason) +
        (g.special ? ' · special group (' + g.special + ')' : '') + ' · parent ' + (g.parent || '—')));
      body.appendChild(el('h3', null, 'Pods (' + detail.pods.length + ')'));
      const text = (request) => Object.entries(request).map(([k, v]) => k + ' ' + v).join(', ');
      body.appendChild(table(['pod', 'class', 'priority', 'node', 'request'], detail.pods.map((p) => [
        p.namespace + '/' + p.name, p.class, p.priority === null ? '-' : String(p.priority),
        p.node || '-', text(p.request)])));
      body.appendChild(el('h3', null, 'In-flight holds (' + detail.holds.length + ')'));
      body.appendChild(table(['pod', 'held', 'expires in'], detail.holds.map((r) => [
        r.namespace + '/' + r.name, text(r.text), seconds(r.expiresAt - detail.now)])));
      if (detail.gangs && detail.gangs.length) {
        body.appendChild(el('h3', null, 'Gangs (' + detail.gangs.length + ')'));
        body.appendChild(gangTable(detail, text));
      }
    } catch (e) {
      body.textContent = 'cannot read group ' + name + ': ' + e.message;
    }
  }

  function renderActivity(activity) {
    const evictions = $('evictions');
    evictions.textContent = '';
    if (!activity.evictions.length) evictions.appendChild(el('li', 'hint', 'none seen since the plugin started'));
    for (const e of activity.evictions) {
      const item = el('li');
      item.dataset.pod = e.namespace + '/' + e.name;
      item.dataset.outcome = e.outcome || 'pending';
      item.textContent = new Date(e.issuedAt).toLocaleTimeString() + ' ' + e.namespace + '/' + e.name +
        ' of ' + e.group + (e.attempt > 1 ? ' (attempt ' + e.attempt + ')' : '') + ': ' +
        (e.outcome ? e.outcome : 'commanded, no outcome yet') + (e.message ? ' — ' + e.message : '') +
        '. ' + e.reason;
      evictions.appendChild(item);
    }
    const denials = $('denials');
    denials.textContent = '';
    if (!activity.denials.length) denials.appendChild(el('li', 'hint', 'none seen since the plugin started'));
    for (const d of activity.denials) {
      const item = el('li');
      item.dataset.pod = d.namespace + '/' + d.name;
      item.dataset.reason = d.code;
      item.textContent = new Date(d.last).toLocaleTimeString() + ' ' + d.namespace + '/' + d.name +
        ' (' + d.group + ') ' + (d.warnedOnly ? 'warned' : 'denied') + ' by the ' + d.source +
        (d.count > 1 ? ' ×' + d.count : '') + ': ' + d.reason;
      denials.appendChild(item);
    }
  }

  function renderStatus(status) {
    state.clockOffset = status.now - Date.now();
    state.revokeDelay = status.revokeDelayMillis;
    const node = $('status');
    node.dataset.ready = String(status.ready);
    node.dataset.stale = String(status.stale);
    if (!status.ready) {
      node.className = 'status down';
      node.textContent = 'engine not ready: ' + status.detail;
    } else if (status.stale) {
      node.className = 'status stale';
      node.textContent = 'stale: the data is ' + seconds(status.ageMillis || 0) + ' old (' + status.detail + ')';
    } else {
      node.className = 'status live';
      node.textContent = 'live · as of ' + new Date(status.asOf).toLocaleTimeString();
    }
  }

  function tickOverUse() {
    for (const badge of document.querySelectorAll('[data-over]')) {
      const group = badge.closest('.group');
      const known = group && state.rows.get(group.dataset.name);
      if (known) badge.textContent = '⚠ OVER: ' + overText(known.row);
    }
  }

  function connect() {
    if (state.events) state.events.close();
    const events = new EventSource(api('/view/events'));
    state.events = events;
    events.addEventListener('status', (e) => renderStatus(JSON.parse(e.data)));
    events.addEventListener('groups', (e) => applyChanges(JSON.parse(e.data)));
    events.addEventListener('activity', (e) => renderActivity(JSON.parse(e.data)));
    events.addEventListener('reset', () => enqueue(loadTree));
    events.addEventListener('open', () => {
      // The stream sends what changes from now on: rows read before it opened (the first stream
      // refused while the state was not copied yet, a lost one) are read again.
      if (state.treeStarted) enqueue(loadTree);
    });
    events.addEventListener('error', () => {
      const node = $('status');
      node.className = 'status down';
      node.textContent = 'disconnected from quotaflow; retrying…';
      if (events.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
    });
  }

  function showError(e) {
    const node = $('status');
    node.className = 'status down';
    node.textContent = e.message;
  }

  // --- why: one runtime explained ----------------------------------------------------------------

  // The runtime's explanation is read only when a panel is opened: each one recomputes a path of the
  // tree on the server. One panel is open at a time; it sits in the group's element after the row
  // and its bars, which a live update replaces, so an open panel outlives the row's redraws.

  function whyButton(name, resource) {
    const button = el('button', 'why', 'why?');
    button.type = 'button';
    button.dataset.resource = resource;
    button.setAttribute('aria-label', 'why ' + name + ' has its runtime of ' + resource);
    const open = state.why !== null && state.why.name === name && state.why.resource === resource;
    button.setAttribute('aria-expanded', String(open));
    if (open) button.setAttribute('aria-controls', 'why-panel');
    button.addEventListener('click', () => toggleWhy(name, resource));
    return button;
  }

  function whyButtonOf(name, resource) {
    const known = state.rows.get(name);
    if (!known) return null;
    for (const button of known.el.querySelectorAll(':scope > .dims button.why')) {
      if (button.dataset.resource === resource) return button;
    }
    return null;
  }

  function markWhyButton(name, resource, open) {
    const button = whyButtonOf(name, resource);
    if (!button) return;
    button.setAttribute('aria-expanded', String(open));
    if (open) button.setAttribute('aria-controls', 'why-panel');
    else button.removeAttribute('aria-controls');
  }

  function toggleWhy(name, resource) {
    const open = state.why;
    // A panel gone with its row (the group left the tree, its parent was collapsed) is not open.
    const same = open !== null && open.name === name && open.resource === resource &&
      open.panel.isConnected;
    closeWhy(false);
    if (!same) openWhy(name, resource);
  }

  function closeWhy(refocus) {
    const open = state.why;
    if (open === null) return;
    state.why = null;
    open.panel.remove();
    markWhyButton(open.name, open.resource, false);
    const button = whyButtonOf(open.name, open.resource);
    if (refocus && button) button.focus();
  }

  async function openWhy(name, resource) {
    const known = state.rows.get(name);
    if (!known) return;
    const panel = el('section', 'why-panel');
    panel.id = 'why-panel';
    panel.dataset.group = name;
    panel.dataset.resource = resource;
    panel.dataset.state = 'reading';
    panel.setAttribute('role', 'region');
    panel.setAttribute('aria-label', 'why ' + name + ' has its runtime of ' + resource);
    const title = el('h3', null, 'Why ' + name + ' has its runtime of ' + resource);
    const close = el('button', 'why-close', 'close');
    close.type = 'button';
    close.addEventListener('click', () => closeWhy(true));
    title.appendChild(document.createTextNode(' '));
    title.appendChild(close);
    panel.appendChild(title);
    const body = el('div', 'why-body', 'reading the explanation…');
    body.setAttribute('aria-live', 'polite');
    panel.appendChild(body);
    known.el.insertBefore(panel, childBox(known.el));
    const open = { name: name, resource: resource, panel: panel };
    state.why = open;
    markWhyButton(name, resource, true);
    try {
      const answer = await getJson(api('/quotas/' + encodeURIComponent(name) + '/explain?resource=' +
        encodeURIComponent(resource)));
      if (typeof answer.text !== 'string') throw new Error('the answer carries no explanation');
      if (state.why !== open) return;
      body.textContent = '';
      const line = whyHeadline(answer.explanation);
      if (line) body.appendChild(el('p', 'why-headline', line));
      // The server's text as text: a <pre> keeps its tables aligned, textContent escapes it.
      body.appendChild(el('pre', 'why-text', answer.text));
      body.appendChild(el('p', 'hint', 'as of ' + new Date().toLocaleTimeString() +
        '; the computation step by step, as quotaflow explain prints it.'));
      panel.dataset.state = 'explained';
    } catch (e) {
      if (state.why !== open) return;
      body.textContent = '';
      const reason = e.status === undefined
        ? 'quotaflow could not be reached (' + e.message + ')'
        : e.message + ' (HTTP ' + e.status + ')';
      const error = el('p', 'error', 'cannot explain ' + name + ' in ' + resource + ': ' + reason);
      error.setAttribute('role', 'alert');
      body.appendChild(error);
      panel.dataset.state = 'error';
    }
  }

  // A canonical amount as a user types it, as the explanation's text writes it (the server's
  // Quantities.format): cpu in cores or millicores, byte resources with the largest exact suffix.
  const BYTE_SUFFIXES = [['Ei', 2 ** 60], ['Pi', 2 ** 50], ['Ti', 2 ** 40], ['Gi', 2 ** 30],
    ['Mi', 2 ** 20], ['Ki', 2 ** 10], ['E', 1e18], ['P', 1e15], ['T', 1e12], ['G', 1e9], ['M', 1e6],
    ['k', 1e3]];

  const bytesResource = (resource) => resource === 'memory' || resource === 'ephemeral-storage' ||
    resource === 'storage' || resource.startsWith('hugepages-');

  function quantity(resource, amount) {
    // Long.MAX_VALUE, the server's "unbounded", reads as 2^63 in JavaScript.
    if (amount >= 2 ** 63) return 'unbounded';
    if (amount === 0) return '0';
    const sign = amount < 0 ? '-' : '';
    const size = Math.abs(amount);
    if (resource === 'cpu') return sign + (size % 1000 === 0 ? String(size / 1000) : size + 'm');
    if (bytesResource(resource)) {
      for (const [suffix, unit] of BYTE_SUFFIXES) {
        if (size % unit === 0) return sign + size / unit + suffix;
      }
    }
    return sign + size;
  }

  // One sentence from the explanation's JSON: what the group gets of its ask, who distributes it,
  // and what its siblings keep, e.g. "research-vision gets 5 of the 8 nvidia.com/gpu it asks:
  // research distributes 6; research-nlp keeps 1." Null when the JSON is not understood: the text
  // below it says everything anyway.
  function whyHeadline(x) {
    try {
      const q = (amount) => quantity(x.resource, amount);
      const level = x.levels[x.levels.length - 1];
      if (!level) return x.group + ' has a runtime of ' + q(x.runtime) + ' ' + x.resource + ': no parent splits it.';
      let line = x.group + ' gets ' + q(x.runtime);
      if (x.request === null) {
        line += ' ' + x.resource;
      } else if (x.runtime < x.request.limited) {
        line += ' of the ' + q(x.request.limited) + ' ' + x.resource + ' it asks';
      } else {
        line += ' ' + x.resource + (x.runtime === x.request.limited ? ', all it asks' : ' (it asks ' + q(x.request.limited) + ')');
      }
      const giver = level.unbounded ? level.parent + ' does not bound ' + x.resource
        : level.source === 'CLUSTER' ? 'the cluster distributes ' + q(level.available)
          : level.source === 'TREE' ? 'the quota tree of ' + level.parent + ' distributes ' + q(level.available)
            : level.parent + ' distributes ' + q(level.available);
      line += ': ' + giver;
      const others = level.participants.filter((p) => p.name !== level.member)
        .sort((a, b) => b.runtime - a.runtime || (a.name < b.name ? -1 : 1));
      const named = others.slice(0, 3).map((p) => p.name + ' keeps ' + q(p.runtime));
      if (others.length > 3) {
        const rest = others.slice(3).reduce((sum, p) => sum + p.runtime, 0);
        named.push((others.length - 3) + ' more keep ' + q(rest));
      }
      return line + (named.length ? '; ' + named.join(', ') : '') + '.';
    } catch (e) {
      return null;
    }
  }

  // --- history: a group's usage over time -------------------------------------------------------

  // Read when a group's detail is opened or its period is chosen, never on a live update: one read
  // sums up to two weeks of kept windows on the server. Each period's step is a multiple of the
  // step the engine keeps (history.step), learned from its first answer: the last 10 minutes are
  // drawn in 5-second steps where the engine keeps them (quotaflow local), else in its own.
  const RANGES = {
    minutes: { from: '-10m', step: 5 * 1000, label: 'last 10 minutes', time: { hour: '2-digit', minute: '2-digit', second: '2-digit' } },
    hour: { from: '-1h', step: 60 * 1000, label: 'last hour', time: { hour: '2-digit', minute: '2-digit' } },
    day: { from: '-1d', step: 15 * 60 * 1000, label: 'last day', time: { weekday: 'short', hour: '2-digit', minute: '2-digit' } },
    weeks: { from: '-14d', step: 3 * 3600 * 1000, label: 'last two weeks', time: { month: 'short', day: 'numeric' } },
  };
  const LEVELS = ['used', 'runtime', 'min', 'borrowed', 'lent'];
  const SVG = 'http://www.w3.org/2000/svg';

  function svg(tag, attrs, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    if (parent) parent.appendChild(node);
    return node;
  }

  // A java.time.Duration as the answer writes it (PT1M, PT1H30M, PT0.5S) in milliseconds.
  function durationMillis(text) {
    const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(text);
    if (!m) throw new Error('the answer\'s step ' + text + ' is not a duration');
    return Math.round(((+(m[1] || 0)) * 3600 + (+(m[2] || 0)) * 60 + (+(m[3] || 0))) * 1000);
  }

  const stepFor = (range, kept) => Math.max(1, Math.round(range.step / kept)) * kept;

  const historyUrl = (name, from, step) => api('/quotas/' + encodeURIComponent(name) +
    '/history?from=' + encodeURIComponent(from) + (step === null ? '' : '&step=' + step));

  async function readHistory(name, range) {
    if (state.keptStep === null) {
      // The default step is the kept one: the last hour at it is a cheap first read that says it.
      const first = await getJson(historyUrl(name, RANGES.hour.from, null));
      state.keptStep = durationMillis(first.keptStep);
      if (range === RANGES.hour && stepFor(range, state.keptStep) === state.keptStep) return first;
    }
    try {
      return await getJson(historyUrl(name, range.from, stepFor(range, state.keptStep)));
    } catch (e) {
      // An older period is kept in coarser steps (two tiers, semantics section 23) that this step
      // may not divide: the answer in the steps that period is kept at.
      if (e.status !== 400 || range === RANGES.hour) throw e;
      return getJson(historyUrl(name, range.from, null));
    }
  }

  // Units as a user types them: cpu in cores, bytes in Gi, GPUs and the rest counted; the
  // resource-hours as quotaflow report writes them (GPUs in GPU-hours).
  function unitOf(resource) {
    if (resource === 'cpu') return { per: 1000, word: 'cores', hours: 'core-hours', perHour: 1000n };
    if (bytesResource(resource)) return { per: 2 ** 30, word: 'Gi', hours: 'GiB-hours', perHour: 2n ** 30n };
    const gpu = resource === 'gpu' || resource.endsWith('/gpu');
    return { per: 1, word: gpu ? 'GPUs' : '', hours: (gpu ? 'GPU' : resource) + '-hours', perHour: 1n };
  }

  // An exact integral (unit-milliseconds) in resource-hours, three decimals rounded half to even.
  function hours(integral, unit) {
    const divisor = 3600000n * unit.perHour;
    const scaled = integral * 1000n;
    let whole = scaled / divisor;
    const twice = 2n * (scaled % divisor);
    if (twice > divisor || (twice === divisor && whole % 2n === 1n)) whole += 1n;
    const text = whole.toString().padStart(4, '0');
    return text.slice(0, -3) + '.' + text.slice(-3);
  }

  // A step's level in canonical units from its exact integral, not from the answer's rounded-down
  // average: a GPU borrowed for ten seconds of a minute averages 0 whole GPUs, but 0.167 here.
  function level(integral, length) {
    if (length <= 0) return 0;
    const exact = BigInt(integral);
    const ms = BigInt(length);
    return Number(exact / ms) + Number(exact % ms) / length;
  }

  const shown = (value, unit) => {
    const v = value / unit.per;
    return String(Number(v.toFixed(v >= 100 ? 0 : 3))) + (unit.word ? ' ' + unit.word : '');
  };

  // The smallest round number at or above v, for the chart's top.
  function roundUp(v) {
    if (!(v > 0)) return 1;
    const power = 10 ** Math.floor(Math.log10(v));
    for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) {
      if (m * power >= v - 1e-9) return m * power;
    }
    return 10 * power;
  }

  function setUpHistory() {
    for (const button of document.querySelectorAll('#history [data-range]')) {
      button.addEventListener('click', () => {
        state.history.range = button.dataset.range;
        if (state.selected !== null) loadHistory(state.selected);
      });
    }
  }

  async function loadHistory(name) {
    const h = state.history;
    if (h.name !== name) h.resource = null;
    h.name = name;
    h.answer = null;
    const reading = ++h.reading;
    const range = RANGES[h.range];
    const section = $('history');
    section.hidden = false;
    section.dataset.group = name;
    section.dataset.state = 'reading';
    for (const button of section.querySelectorAll('[data-range]')) {
      button.setAttribute('aria-pressed', String(button.dataset.range === h.range));
    }
    $('history-title').textContent = 'Usage over time: ' + name + ', ' + range.label;
    $('history-resources').textContent = '';
    const body = $('history-body');
    body.textContent = 'reading the history…';
    try {
      const answer = await readHistory(name, range);
      if (reading !== h.reading) return;
      h.answer = answer;
      h.readAt = new Date();
      drawHistory();
    } catch (e) {
      if (reading !== h.reading) return;
      // A step refused (history.step changed since the page learned it) is learned anew next time.
      if (e.status === 400) state.keptStep = null;
      body.textContent = '';
      const says = e.status === 404 ? 'No history to show: ' + e.message + '.'
        : e.status === 503 ? 'The history is not readable at the moment, as during a rebalance (HTTP 503: ' +
          e.message + '). Choose a period to try again.'
          : e.status === undefined ? 'quotaflow could not be reached to read the history (' + e.message + ').'
            : 'Cannot read the history of ' + name + ': ' + e.message + ' (HTTP ' + e.status + ').';
      body.appendChild(el('p', e.status === 404 ? 'hint' : 'error', says));
      section.dataset.state = e.status === 404 ? 'not-kept' : e.status === 503 ? 'unavailable' : 'error';
    }
  }

  // The resource shown first: the one the group borrowed most of against its guarantee, else one
  // it has a guarantee of.
  function firstResource(answer) {
    const names = Object.keys(answer.resources);
    const total = (name, metric) => answer.resources[name][metric].integral
      .reduce((sum, v) => sum + BigInt(v), 0n);
    let best = null;
    let most = 0;
    for (const name of names) {
      const borrowed = Number(total(name, 'borrowed'));
      const share = borrowed / Math.max(1, Number(total(name, 'min')));
      if (borrowed > 0 && share > most) {
        best = name;
        most = share;
      }
    }
    return best || names.find((name) => total(name, 'min') > 0n) || names[0];
  }

  function drawHistory() {
    const h = state.history;
    const answer = h.answer;
    const names = Object.keys(answer.resources);
    const body = $('history-body');
    body.textContent = '';
    if (!names.length || !answer.steps.some((s, i) => holds(answer, i))) {
      // A group created after the period, or one that neither held nor used anything in it.
      body.appendChild(el('p', 'hint', 'Nothing is recorded of ' + h.name + ' in the ' +
        RANGES[h.range].label + ': no level above zero and no eviction.'));
      $('history').dataset.state = 'empty';
      return;
    }
    if (!names.includes(h.resource)) h.resource = firstResource(answer);
    const choices = $('history-resources');
    choices.textContent = '';
    for (const name of names) {
      const button = el('button', null, name);
      button.type = 'button';
      button.dataset.resource = name;
      button.setAttribute('aria-pressed', String(name === h.resource));
      button.addEventListener('click', () => {
        h.resource = name;
        drawHistory();
      });
      choices.appendChild(button);
    }
    const first = firstRecorded(answer);
    const steps = answer.steps.slice(first).map((s, j) => {
      const i = first + j;
      const start = Date.parse(s.start);
      const end = Date.parse(s.end);
      const step = { start: start, end: end, evictions: s.evictions, denials: s.denials || {}, integral: {}, value: {} };
      for (const metric of LEVELS) {
        step.integral[metric] = answer.resources[h.resource][metric].integral[i];
        step.value[metric] = level(step.integral[metric], end - start);
      }
      return step;
    });
    const range = RANGES[h.range];
    const summary = historySummary(steps, range);
    body.appendChild(el('p', 'history-summary', summary));
    body.appendChild(chart(steps, range, summary));
    body.appendChild(legend());
    body.appendChild(stepTable(steps, range));
    if (first > 0) {
      body.appendChild(el('p', 'hint', 'Nothing is recorded of ' + h.name + ' before ' +
        new Date(steps[0].start).toLocaleString([], range.time) + ': the chart starts there.'));
    }
    body.appendChild(el('p', 'hint', 'read at ' + h.readAt.toLocaleTimeString() +
      ' (choose the period again to read it anew); steps of ' + stepText(durationMillis(answer.step)) +
      ', each level averaged over its step from the exact integral.'));
    $('history').dataset.state = 'drawn';
  }

  // The steps before the first that holds anything (a level of any resource, an eviction) are left
  // out, so that a group created within the period fills the chart; at least MIN_STEPS are drawn.
  const MIN_STEPS = 6;
  const holds = (answer, i) => Object.keys(answer.steps[i].evictions).length > 0 ||
    Object.values(answer.resources).some((metrics) =>
      Object.values(metrics).some((values) => values.integral[i] !== '0'));

  function firstRecorded(answer) {
    let first = 0;
    while (first < answer.steps.length - MIN_STEPS && !holds(answer, first)) first++;
    return first;
  }

  const stepText = (ms) => (ms % 3600000 === 0 ? ms / 3600000 + ' h'
    : ms % 60000 === 0 ? ms / 60000 + ' min' : ms / 1000 + ' s');

  function evictionText(counts) {
    return Object.entries(counts).map(([reason, n]) => reason + ' ×' + n).join(', ');
  }

  // The chart's text alternative: the period's totals, as quotaflow report prints them.
  function historySummary(steps, range) {
    const h = state.history;
    const unit = unitOf(h.resource);
    const total = (metric) => steps.reduce((sum, s) => sum + BigInt(s.integral[metric]), 0n);
    const evictions = {};
    for (const s of steps) {
      for (const [reason, n] of Object.entries(s.evictions)) evictions[reason] = (evictions[reason] || 0) + n;
    }
    const denials = {};
    for (const s of steps) {
      for (const [reason, n] of Object.entries(s.denials)) denials[reason] = (denials[reason] || 0) + n;
    }
    const count = Object.values(evictions).reduce((sum, n) => sum + n, 0);
    const denied = Object.values(denials).reduce((sum, n) => sum + n, 0);
    return h.name + ', ' + h.resource + ', ' + range.label + ': used ' + hours(total('used'), unit) +
      ' ' + unit.hours + ' against ' + hours(total('min'), unit) + ' guaranteed; borrowed ' +
      hours(total('borrowed'), unit) + ' ' + unit.hours + ', lent ' + hours(total('lent'), unit) +
      ' ' + unit.hours + '; ' + (count === 0 ? 'no eviction' : count + (count === 1 ? ' eviction' : ' evictions') +
        ' (' + evictionText(evictions) + ')') + '; ' + (denied === 0 ? 'no pod denied' :
        denied + (denied === 1 ? ' pod denied' : ' pods denied') + ' (' + evictionText(denials) + ')') + '.';
  }

  function stepTitle(s, range, unit) {
    const time = (ms) => new Date(ms).toLocaleString([], range.time);
    const values = LEVELS.map((m) => m + ' ' + shown(s.value[m], unit)).join(', ');
    const evicted = Object.keys(s.evictions).length ? '; evictions: ' + evictionText(s.evictions) : '';
    const denied = Object.keys(s.denials).length ? '; denials: ' + evictionText(s.denials) : '';
    return time(s.start) + '–' + time(s.end) + ': ' + values + evicted + denied;
  }

  // Used, runtime and min as step lines; borrowed shaded above the min line and lent below it, each
  // as high as its own average; evictions marked above their step. Every step carries its numbers
  // (data-* and a tooltip), in the units the answer has them in.
  function chart(steps, range, summary) {
    const h = state.history;
    const unit = unitOf(h.resource);
    const W = 560;
    const H = 220;
    const left = 64;
    const right = 10;
    const top = 20;
    const bottom = 24;
    const peak = Math.max(...steps.map((s) => Math.max(s.value.used, s.value.runtime,
      s.value.min + s.value.borrowed)));
    const ceiling = roundUp((peak * 1.05) / unit.per) * unit.per;
    const width = (W - left - right) / steps.length;
    const x = (i) => left + i * width;
    const y = (v) => top + (H - top - bottom) * (1 - v / ceiling);
    const node = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'history-chart', role: 'img',
      'aria-labelledby': 'history-svg-title history-svg-desc' });
    node.dataset.group = h.name;
    node.dataset.resource = h.resource;
    node.dataset.from = h.answer.from;
    node.dataset.to = h.answer.to;
    node.dataset.step = h.answer.step;
    svg('title', { id: 'history-svg-title' }, node).textContent =
      'Usage of ' + h.resource + ' by ' + h.name + ', ' + range.label;
    svg('desc', { id: 'history-svg-desc' }, node).textContent = summary;
    const hatch = svg('pattern', { id: 'history-lent-hatch', width: 6, height: 6,
      patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, svg('defs', {}, node));
    svg('rect', { width: 6, height: 6, class: 'lent-ground' }, hatch);
    svg('line', { x1: 0, y1: 0, x2: 0, y2: 6, class: 'lent-stripe' }, hatch);
    for (const v of [0, ceiling / 2, ceiling]) {
      svg('line', { x1: left, x2: W - right, y1: y(v), y2: y(v), class: 'grid' }, node);
      svg('text', { x: left - 4, y: y(v) + 3, 'text-anchor': 'end', class: 'axis' }, node)
        .textContent = shown(v, unit);
    }
    const time = (ms) => new Date(ms).toLocaleString([], range.time);
    const last = steps[steps.length - 1];
    svg('text', { x: left, y: H - 6, class: 'axis' }, node).textContent = time(steps[0].start);
    svg('text', { x: W - right, y: H - 6, 'text-anchor': 'end', class: 'axis' }, node).textContent =
      time(last.end);
    steps.forEach((s, i) => {
      if (s.value.lent > 0) {
        const low = Math.max(0, s.value.min - s.value.lent);
        const area = svg('rect', { x: x(i), width: width, y: y(s.value.min), height: y(low) - y(s.value.min),
          class: 'lent', fill: 'url(#history-lent-hatch)' }, node);
        area.dataset.value = String(s.value.lent);
      }
      if (s.value.borrowed > 0) {
        const high = s.value.min + s.value.borrowed;
        const area = svg('rect', { x: x(i), width: width, y: y(high), height: y(s.value.min) - y(high),
          class: 'borrowed' }, node);
        area.dataset.value = String(s.value.borrowed);
      }
    });
    for (const metric of ['runtime', 'min', 'used']) {
      const points = steps.flatMap((s, i) => [x(i) + ',' + y(s.value[metric]), x(i + 1) + ',' + y(s.value[metric])]);
      svg('polyline', { points: points.join(' '), class: 'line ' + metric }, node).dataset.metric = metric;
    }
    steps.forEach((s, i) => {
      // The step's numbers, under the pointer anywhere in its column.
      const column = svg('rect', { x: x(i), width: width, y: top, height: H - top - bottom, class: 'step' }, node);
      column.dataset.start = new Date(s.start).toISOString();
      column.dataset.end = new Date(s.end).toISOString();
      for (const metric of LEVELS) {
        column.dataset[metric] = String(s.value[metric]);
        column.dataset[metric + 'Integral'] = s.integral[metric];
      }
      svg('title', {}, column).textContent = stepTitle(s, range, unit);
      const count = Object.values(s.evictions).reduce((sum, n) => sum + n, 0);
      if (count > 0) {
        const mark = svg('g', { class: 'eviction' }, node);
        mark.dataset.start = column.dataset.start;
        mark.dataset.count = String(count);
        mark.dataset.reasons = evictionText(s.evictions);
        const middle = x(i) + width / 2;
        svg('line', { x1: middle, x2: middle, y1: top, y2: H - bottom }, mark);
        svg('path', { d: 'M' + (middle - 5) + ',' + (top - 12) + 'h10l-5,9z' }, mark);
        svg('title', {}, mark).textContent = count + (count === 1 ? ' eviction' : ' evictions') + ' at ' +
          time(s.start) + '–' + time(s.end) + ': ' + evictionText(s.evictions);
      }
    });
    return node;
  }

  function legend() {
    const node = el('p', 'history-legend');
    node.setAttribute('aria-hidden', 'true');
    for (const [cls, text] of [['used', 'used'], ['runtime', 'runtime'], ['min', 'min'],
      ['borrowed', 'borrowed (used above min)'], ['lent', 'lent (min above runtime)'],
      ['eviction', 'eviction']]) {
      node.appendChild(el('span', 'swatch ' + cls, text));
    }
    return node;
  }

  // Every step's numbers as a table, folded: the chart's data for a screen reader or a copy.
  function stepTable(steps, range) {
    const unit = unitOf(state.history.resource);
    const time = (ms) => new Date(ms).toLocaleString([], range.time);
    const node = el('details', 'history-numbers');
    node.appendChild(el('summary', null, 'the numbers, step by step (' + (unit.word || 'count') + ')'));
    node.appendChild(table(['from', 'used', 'runtime', 'min', 'borrowed', 'lent', 'evictions'],
      steps.map((s) => [time(s.start)].concat(LEVELS.map((m) => shown(s.value[m], { per: unit.per, word: '' })),
        [evictionText(s.evictions) || '-']))));
    return node;
  }

  // --- what-if ---------------------------------------------------------------------------------

  function renderEdits() {
    const list = $('wi-edits');
    list.textContent = '';
    state.edits.forEach((edit, i) => {
      const item = el('li', null, edit.field === 'pods'
        ? 'add ' + edit.count + ' pending pod(s) of ' + edit.resource + ' ' + edit.amount + ' to ' + edit.group
        : edit.group + ': ' + edit.field + ' ' + edit.resource + ' = ' + edit.amount);
      const remove = el('button', null, 'remove');
      remove.type = 'button';
      remove.addEventListener('click', () => { state.edits.splice(i, 1); renderEdits(); });
      item.appendChild(document.createTextNode(' '));
      item.appendChild(remove);
      list.appendChild(item);
    });
    $('wi-run').disabled = state.edits.length === 0;
  }

  function whatIfBody() {
    const groups = new Map();
    const pods = [];
    for (const edit of state.edits) {
      if (edit.field === 'pods') {
        pods.push({ group: edit.group, requests: { [edit.resource]: edit.amount }, count: edit.count });
      } else {
        const g = groups.get(edit.group) || { name: edit.group };
        g[edit.field] = Object.assign(g[edit.field] || {}, { [edit.resource]: edit.amount });
        groups.set(edit.group, g);
      }
    }
    const body = {};
    if (groups.size) body.groups = Array.from(groups.values());
    if (pods.length) body.pods = pods;
    return body;
  }

  async function runWhatIf() {
    $('wi-error').textContent = '';
    const result = $('wi-result');
    result.textContent = 'computing…';
    try {
      const answer = await getJson(api('/what-if'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(whatIfBody()),
      });
      result.textContent = '';
      result.appendChild(el('p', null, answer.changed.length + ' of ' + answer.groups +
        ' groups would change their runtime:'));
      const node = el('table');
      node.id = 'wi-table';
      const head = el('tr');
      ['group', 'resource', 'runtime now', 'runtime then'].forEach((h) => head.appendChild(el('th', null, h)));
      node.appendChild(head);
      for (const change of answer.changed) {
        const resources = new Set(Object.keys(change.before.runtime).concat(Object.keys(change.after.runtime)));
        if (change.before.valid !== change.after.valid) {
          const tr = el('tr');
          tr.appendChild(el('td', null, change.name));
          tr.appendChild(el('td', 'changed', change.after.valid ? 'becomes valid' : '✖ becomes invalid: ' + change.after.reason));
          node.appendChild(tr);
        }
        for (const resource of Array.from(resources).sort()) {
          const before = change.before.runtime[resource];
          const after = change.after.runtime[resource];
          if (before === after) continue;
          const tr = el('tr');
          tr.dataset.group = change.name;
          tr.dataset.resource = resource;
          tr.dataset.after = after === undefined ? '' : String(after);
          tr.appendChild(el('td', null, change.name));
          tr.appendChild(el('td', null, resource));
          tr.appendChild(el('td', null, change.before.text[resource] || '-'));
          tr.appendChild(el('td', 'changed', (change.after.text[resource] || '-') +
            (after > before ? ' ▲' : after < before ? ' ▼' : '')));
          node.appendChild(tr);
        }
      }
      result.appendChild(node);
    } catch (e) {
      result.textContent = '';
      $('wi-error').textContent = 'what-if refused: ' + e.message;
    }
  }

  function setUpWhatIf() {
    const field = $('wi-field');
    const count = $('wi-count-label');
    const sync = () => { count.hidden = field.value !== 'pods'; };
    field.addEventListener('change', sync);
    sync();
    $('what-if-form').addEventListener('submit', (e) => {
      e.preventDefault();
      state.edits.push({
        group: $('wi-group').value.trim(),
        field: field.value,
        resource: $('wi-resource').value.trim(),
        amount: $('wi-amount').value.trim(),
        count: Math.max(1, parseInt($('wi-count').value, 10) || 1),
      });
      renderEdits();
    });
    $('wi-run').addEventListener('click', runWhatIf);
    $('wi-clear').addEventListener('click', () => {
      state.edits = [];
      renderEdits();
      $('wi-result').textContent = '';
      $('wi-error').textContent = '';
    });
  }

  // --- start -----------------------------------------------------------------------------------

  // --- sign-in ---------------------------------------------------------------------------------

  // Who is signed in: {auth, user, seesAll, mayEditQuotas}; authentication off says auth false.
  async function session() {
    const response = await fetch('/api/v1/session', { headers: { Accept: 'application/json' } });
    if (response.status === 401) return null;
    return response.json();
  }

  function showSignIn() {
    $('sign-in').hidden = false;
    $('status').className = 'status down';
    $('status').textContent = 'sign in to see the quota tree';
    $('sign-in').addEventListener('submit', async (e) => {
      e.preventDefault();
      const response = await fetch('/api/v1/session', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ token: $('token').value.trim() }),
      });
      if (response.ok) {
        location.reload();
      } else {
        const body = await response.json().catch(() => ({}));
        $('sign-in-error').textContent = body.error || 'the token was not accepted';
      }
    });
  }

  function showWho(who) {
    if (!who.auth) return;
    $('who').textContent = 'signed in as ' + who.user;
    $('sign-out').hidden = false;
    $('sign-out').addEventListener('click', async () => {
      await fetch('/api/v1/session', { method: 'DELETE' });
      location.reload();
    });
    // The what-if needs the right to edit ElasticQuotas: not offered without it.
    if (!who.mayEditQuotas) $('what-if').hidden = true;
  }

  // Without the live stream (it carries every group: cluster-wide viewers only), the page reads
  // its groups and activity again every few seconds.
  function poll() {
    const node = $('status');
    node.className = 'status live';
    node.textContent = 'your groups · refreshed every 5 s';
    setInterval(() => {
      enqueue(loadTree);
      getJson(api('/view/activity')).then(renderActivity).catch(() => {});
    }, 5000);
  }

  async function start() {
    let who;
    try {
      who = await session();
    } catch (e) {
      showError(e);
      setTimeout(start, 2000);
      return;
    }
    if (who === null) {
      showSignIn();
      return;
    }
    showWho(who);
    state.who = who;
    let clusters;
    try {
      clusters = (await getJson('/api/v1/clusters')).clusters;
    } catch (e) {
      showError(e);
      setTimeout(start, 2000);
      return;
    }
    if (!clusters.length) {
      $('status').textContent = 'no cluster is held yet; retrying…';
      setTimeout(start, 2000);
      return;
    }
    const wanted = new URLSearchParams(location.hash.slice(1)).get('cluster');
    state.cluster = clusters.includes(wanted) ? wanted : clusters[0];
    const picker = $('cluster');
    picker.textContent = '';
    for (const name of clusters) {
      const option = el('option', null, name);
      option.value = name;
      picker.appendChild(option);
    }
    picker.value = state.cluster;
    $('cluster-picker').hidden = clusters.length < 2;
    $('cluster-name').textContent = clusters.length < 2 ? 'cluster ' + state.cluster : '';
    picker.addEventListener('change', () => {
      location.hash = 'cluster=' + encodeURIComponent(picker.value);
      location.reload();
    });
    // The stream first: a change made while the rows are read then reaches them.
    if (!state.who.auth || state.who.seesAll) {
      connect();
    } else {
      poll();
    }
    await enqueue(loadTree);
    getJson(api('/view/activity')).then(renderActivity).catch(() => {});
  }

  setUpWhatIf();
  setUpHistory();
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || state.why === null) return;
    // The focus goes back to the why button unless it is elsewhere (e.g. typing in the what-if).
    const focus = document.activeElement;
    closeWhy(!focus || focus === document.body || state.why.panel.contains(focus) ||
      (focus.classList.contains('why') && focus.closest('.group') === state.why.panel.parentNode));
  });
  setInterval(tickOverUse, 1000);
  start();
})();
