extension InspectorPage {
    /// Live updates (server-sent events, pause, resync), the controls, and the start: the embedded
    /// snapshot rendered at once, then the event stream opened.
    static let live = #"""
        function connection(kind, text) {
          const node = document.getElementById('connection');
          node.className = kind;
          node.textContent = text;
        }

        function applyText(name, text) {
          try { apply(name, JSON.parse(text)); } catch (error) { /* a malformed event is skipped */ }
        }

        // While paused, events wait (a bounded number; past it, or on a resync, the page reloads the
        // snapshot when resumed instead).
        function receive(name, text) {
          if (ui.paused) {
            ui.count += 1;
            if (name === 'resync' || ui.waiting.length >= MAX_WAITING) { ui.missed = true; ui.waiting = []; }
            else if (!ui.missed) ui.waiting.push([name, text]);
            renderToolbar();
            return;
          }
          if (name === 'resync') { resync(); return; }
          applyText(name, text);
          schedule();
        }

        function resync() {
          fetch(api('/api/snapshot'), {cache: 'no-store'})
            .then((response) => {
              if (!response.ok) throw new Error('HTTP ' + response.status);
              return response.json();
            })
            .then((snapshot) => {
              if (ui.paused) { ui.missed = true; return; }
              load(snapshot);
              render();
            })
            .catch((error) => connection('offline', 'Reload failed: ' + error.message));
        }

        function connect() {
          if (typeof EventSource === 'undefined' || location.protocol === 'file:') {
            connection('offline', 'Not live');
            return;
          }
          const source = new EventSource(api('/api/events'));
          let lost = false;
          source.addEventListener('open', () => {
            connection('live', 'Live');
            // Events sent while the connection was down are gone: the snapshot has their effect.
            if (lost) { lost = false; resync(); }
          });
          source.addEventListener('error', () => {
            lost = true;
            connection('offline', source.readyState === EventSource.CLOSED ? 'Disconnected' : 'Reconnecting…');
          });
          for (const name of ['request', 'stream', 'transfer', 'outbox', 'clear', 'resync']) {
            source.addEventListener(name, (event) => receive(name, event.data));
          }
        }

        function renderToolbar() {
          const total = state.requests.size;
          const summary = document.getElementById('summary');
          const parts = [ui.shown === total ? total + (total === 1 ? ' request' : ' requests')
            : ui.shown + ' of ' + total + ' requests'];
          if (state.dropped > 0) parts.push(state.dropped + ' older evicted');
          summary.textContent = parts.join(' · ');
          summary.title = 'The inspector keeps the last ' + state.maxRequests + ' requests';
          const pause = document.getElementById('pause');
          pause.textContent = ui.paused ? 'Resume' : 'Pause';
          pause.setAttribute('aria-pressed', String(ui.paused));
          const waiting = document.getElementById('waiting');
          waiting.hidden = !ui.paused;
          waiting.textContent = ui.count + (ui.count === 1 ? ' update' : ' updates') + ' waiting';
        }

        function togglePause() {
          ui.paused = !ui.paused;
          if (!ui.paused) {
            const waiting = ui.waiting, missed = ui.missed;
            ui.waiting = [];
            ui.missed = false;
            ui.count = 0;
            if (missed) resync();
            else for (const [name, text] of waiting) applyText(name, text);
          }
          render();
        }

        function clearAll() {
          fetch(api('/api/clear'), {method: 'POST'})
            .then((response) => {
              if (!response.ok) throw new Error('HTTP ' + response.status);
              apply('clear', {});
              render();
            })
            .catch((error) => connection('offline', 'Clear failed: ' + error.message));
        }

        function openDetail(id) {
          ui.detail = id;
          const params = new URLSearchParams(location.search);
          if (id == null) params.delete('detail');
          else params.set('detail', id);
          try { history.replaceState(null, '', '?' + params.toString()); } catch (error) { /* file: */ }
          render();
          if (id != null) document.getElementById('detail').scrollTop = 0;
        }

        function wire() {
          const open = (event) => {
            const node = event.target.closest('[data-id]');
            if (node) openDetail(node.dataset.id);
          };
          const rows = document.querySelector('#requests tbody');
          rows.addEventListener('click', open);
          rows.addEventListener('keydown', (event) => { if (event.key === 'Enter') open(event); });
          document.getElementById('waterfall').addEventListener('click', open);
          document.getElementById('detail').addEventListener('click', (event) => {
            if (event.target.closest('.close')) openDetail(null);
          });
          document.addEventListener('keydown', (event) => {
            if (event.key === 'Escape' && ui.detail != null) openDetail(null);
          });
          const filter = document.getElementById('filter');
          filter.value = new URLSearchParams(location.search).get('filter') || '';
          ui.filter = filter.value.trim().toLowerCase();
          filter.addEventListener('input', () => { ui.filter = filter.value.trim().toLowerCase(); render(); });
          document.getElementById('pause').addEventListener('click', togglePause);
          document.getElementById('clear').addEventListener('click', clearAll);
          document.getElementById('export').addEventListener('click', exportHAR);
          // Requests in flight grow along the axis while nothing else happens.
          setInterval(() => {
            if (!ui.paused && [...state.requests.values()].some((r) => r.end == null)) schedule();
          }, 1000);
        }

        try {
          load(JSON.parse(document.getElementById('snapshot').textContent));
          renderLegend();
          wire();
          render();
          connect();
        } catch (error) {
          const fatal = document.getElementById('fatal');
          fatal.hidden = false;
          fatal.textContent = 'The inspector page failed: ' + error.message;
        }
        """#
}
