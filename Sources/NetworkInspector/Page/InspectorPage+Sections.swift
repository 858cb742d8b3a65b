extension InspectorPage {
    /// The streams, transfers and outbox sections, each shown only when it has something to show.
    static let sections = #"""
        function section(id, present, build) {
          const node = document.getElementById(id);
          node.hidden = !present;
          node.querySelector('.content').replaceChildren(...(present ? [build()] : []));
        }

        function grid(headings, rows) {
          return el('table', {class: 'grid'},
            el('thead', {}, el('tr', {}, headings.map((h) => el('th', {}, h)))), el('tbody', {}, rows));
        }

        function renderStreams() {
          const list = [...state.streams.values()];
          section('streams', list.length > 0, () => grid(['URL', 'Events', 'Last event', 'Duration', 'State'],
            list.map((s) => el('tr', {'data-id': s.id, class: s.error != null ? 'error' : null},
              el('td', {class: 'url', title: s.url}, s.url),
              el('td', {class: 'num'}, s.events),
              el('td', {class: 'last', title: s.last}, s.last),
              el('td', {class: 'num'}, ms((s.end ?? now()) - s.start)),
              el('td', {}, s.error != null ? 'failed: ' + s.error : s.end == null ? 'open' : 'ended')))));
        }

        function renderTransfers() {
          const list = [...state.transfers.values()];
          section('transfers', list.length > 0, () => grid(
            ['Kind', 'URL', 'Progress', '', 'Confirmed offset', 'State'],
            list.map((t) => {
              const known = t.total != null && t.total > 0;
              const progress = known ? el('progress', {max: t.total, value: Math.min(t.bytes, t.total)})
                : el('progress', {});
              const amount = bytes(t.bytes) + (known ? ' of ' + bytes(t.total) + ' (' +
                Math.floor((100 * t.bytes) / t.total) + '%)' : '');
              return el('tr', {'data-id': t.id, class: /fail|error/i.test(t.state) ? 'error' : null},
                el('td', {}, t.kind), el('td', {class: 'url', title: t.url}, t.url), el('td', {}, progress),
                el('td', {class: 'num'}, amount),
                el('td', {class: 'num', title: 'What the server confirmed it holds'},
                  t.offset != null ? bytes(t.offset) : '—'),
                el('td', {}, t.state));
            })));
        }

        function renderOutbox() {
          const o = state.outbox;
          section('outbox', o != null, () => el('div', {},
            el('p', {class: 'chips'},
              el('span', {class: 'chip'}, 'Waiting ' + o.waiting),
              el('span', {class: 'chip'}, 'Sending ' + o.sending),
              el('span', {class: classes('chip', o.deadLetters > 0 && 'error')}, 'Dead letters ' + o.deadLetters)),
            (o.items || []).length === 0 ? null : grid(['Method', 'URL', 'State', 'Attempts'],
              o.items.map((item) => el('tr', {'data-id': item.id, class: /dead/i.test(item.state) ? 'error' : null},
                el('td', {class: 'method'}, item.method), el('td', {class: 'url', title: item.url}, item.url),
                el('td', {}, item.state), el('td', {class: 'num'}, item.attempts))))));
        }
        """#
}
