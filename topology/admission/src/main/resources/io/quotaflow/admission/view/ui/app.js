// quotaflow's web view: the quota tree of one cluster, rendered lazily (a parent's children are
// read only when it is expanded, PAGE rows at a time), kept live by the server's event stream
// (only changed rows arrive), with the group detail, recent activity, the what-if panel and, per
// group and resource, a "why" panel that reads the runtime's explanation when it is opened.
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
      const [head, dims] = rowContent(row);
      known.el.replaceChild(head, known.el.children[0]);
      known.el.replaceChild(dims, known.el.children[1]);
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

  function quantity(resource, amount) {
    // Long.MAX_VALUE, the server's "unbounded", reads as 2^63 in JavaScript.
    if (amount >= 2 ** 63) return 'unbounded';
    if (amount === 0) return '0';
    const sign = amount < 0 ? '-' : '';
    const size = Math.abs(amount);
    if (resource === 'cpu') return sign + (size % 1000 === 0 ? String(size / 1000) : size + 'm');
    const bytes = resource === 'memory' || resource === 'ephemeral-storage' || resource === 'storage' ||
      resource.startsWith('hugepages-');
    if (bytes) {
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
