extension InspectorPage {
    /// The requests table and the waterfall: one row and one bar per request shown, on one time axis.
    static let overview = #"""
        function render() {
          const shown = visible();
          ui.shown = shown.length;
          renderTable(shown);
          renderWaterfall(shown);
          renderDetail();
          renderStreams();
          renderTransfers();
          renderOutbox();
          renderToolbar();
        }

        // Events coalesce into at most one render every 100 ms, however fast they come.
        let pending = 0;
        function schedule() {
          if (pending === 0) pending = setTimeout(() => { pending = 0; render(); }, 100);
        }

        function renderTable(shown) {
          document.querySelector('#requests tbody').replaceChildren(...shown.map(row));
          const empty = document.getElementById('no-requests');
          empty.hidden = shown.length > 0;
          empty.textContent = state.requests.size > 0 ? 'No request matches the filter.'
            : 'No requests yet: each shows here as the layer sends it.';
        }

        function row(r) {
          const wait = (value) => (value > 0 ? ms(value) : '—');
          return el('tr', {
            'data-id': r.id, tabindex: 0,
            class: classes(failed(r) && 'error', r.end == null && 'running', r.id === ui.detail && 'selected'),
          },
          el('td', {class: 'method'}, r.method),
          el('td', {class: 'url', title: r.url}, shortURL(r.url)),
          el('td', {class: 'status', title: r.error}, statusText(r)),
          el('td', {class: 'duration'}, r.end == null ? '…' : ms(r.end - r.start)),
          el('td', {class: 'size', title: bytes(r.bytesSent) + ' sent, ' + bytes(r.bytesReceived) + ' received'},
            bytes(r.bytesReceived)),
          el('td', {class: 'cache', title: r.cacheReason}, r.cache),
          el('td', {class: classes('shared', r.sharedBy > 1 && 'notable')}, r.sharedBy),
          el('td', {class: classes('retries', r.retries > 0 && 'notable')}, r.retries),
          el('td', {class: classes('budget', !(r.queuedBudget > 0) && 'muted')}, wait(r.queuedBudget)),
          el('td', {class: classes('rate', !(r.queuedRateLimit > 0) && 'muted')}, wait(r.queuedRateLimit)),
          el('td', {class: 'account'}, r.account));
        }

        function renderWaterfall(shown) {
          const box = document.getElementById('waterfall');
          const axis = document.getElementById('axis');
          if (shown.length === 0) { box.replaceChildren(); axis.replaceChildren(); return; }
          let t0 = Infinity, t1 = -Infinity;
          for (const r of shown) { t0 = Math.min(t0, r.start); t1 = Math.max(t1, endOf(r)); }
          const span = Math.max(t1 - t0, 1);
          const at = (t) => ((t - t0) / span) * 100;
          axis.replaceChildren(el('span'), ticks(span, at, t0), el('span'));
          box.replaceChildren(...shown.map((r) => el('div', {
            class: classes('bar', failed(r) && 'error', r.id === ui.detail && 'selected'),
            'data-id': r.id, title: r.method + ' ' + r.url,
          },
          el('span', {class: 'label'}, r.method + ' ' + shortURL(r.url)),
          track(r, at),
          el('span', {class: 'time'}, r.end == null ? '…' : ms(r.end - r.start)))));
        }

        // The request's whole span as a thin line, each phase over it as a coloured segment.
        function track(r, at) {
          const node = el('div', {class: 'track'}, place(el('span', {class: 'span'}), at(r.start), at(endOf(r))));
          for (const phase of r.phases || []) {
            const end = phase.end ?? endOf(r);
            const title = (PHASE_NAMES[phase.name] || phase.name) + ': ' + ms(end - phase.start);
            node.append(place(el('span', {class: 'phase', 'data-phase': phase.name, title}),
              at(phase.start), at(end)));
          }
          return node;
        }

        function place(node, from, to) {
          node.style.left = from + '%';
          node.style.width = Math.max(to - from, 0) + '%';
          return node;
        }

        // Ticks every 1, 2 or 5 times a power of ten, about eight across.
        function ticks(span, at, t0) {
          const raw = span / 8;
          const power = Math.pow(10, Math.floor(Math.log10(raw)));
          const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
          const node = el('div', {class: 'ticks'});
          for (let t = 0; t <= span; t += step) node.append(place(el('span', {class: 'tick'}, ms(t)), at(t0 + t), at(t0 + t)));
          return node;
        }

        function renderLegend() {
          document.getElementById('legend').replaceChildren(...Object.entries(PHASE_NAMES).map(([phase, name]) =>
            el('span', {}, el('span', {class: 'swatch', 'data-phase': phase}), name)));
        }
        """#
}
