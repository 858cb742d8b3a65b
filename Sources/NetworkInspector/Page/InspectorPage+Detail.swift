extension InspectorPage {
    /// The detail view of one request (`?detail=ID`): facts, timing, each attempt with its headers and
    /// curl command, and the bodies as the inspector kept them.
    static let detail = #"""
        function renderDetail() {
          const panel = document.getElementById('detail');
          const id = ui.detail;
          const request = id == null ? undefined : state.requests.get(id);
          document.body.classList.toggle('with-detail', id != null);
          if (id == null) {
            panel.hidden = true;
            panel.removeAttribute('data-id');
            panel.replaceChildren();
            ui.detailShown = undefined;
            return;
          }
          // Rebuilt only when its request changed, so a reader's scroll and selection stay put.
          if (!panel.hidden && panel.dataset.id === id && ui.detailShown === request) return;
          ui.detailShown = request;
          panel.hidden = false;
          panel.dataset.id = id;
          panel.replaceChildren(...(request ? detailOf(request) : gone(id)).flat(Infinity));
        }

        function closeButton() {
          return el('button', {type: 'button', class: 'close', title: 'Close (Esc)', 'aria-label': 'Close'}, '×');
        }

        function gone(id) {
          return [closeButton(), el('h2', {class: 'title'}, 'Request ' + id),
            el('p', {class: 'empty'}, 'The inspector no longer holds this request: it keeps the last ' +
              state.maxRequests + '.')];
        }

        function detailOf(r) {
          const facts = [
            ['Status', statusText(r)], ['Error', r.error], ['Layer', r.layer], ['Account', r.account],
            ['Started', new Date(state.epoch + r.start).toLocaleTimeString()],
            ['Duration', r.end == null ? 'running' : ms(r.end - r.start)],
            ['Cache', r.cache + (r.cacheReason ? ': ' + r.cacheReason : '')],
            ['Shared by', r.sharedBy + (r.sharedBy === 1 ? ' caller' : ' callers')],
            ['Retries', r.retries],
            ['Queued', 'budget ' + ms(r.queuedBudget) + ', rate limit ' + ms(r.queuedRateLimit)],
            ['Waiting on policies', ms(r.waitingOnPolicies)],
            ['Sent', bytes(r.bytesSent)], ['Received', bytes(r.bytesReceived)],
          ].filter(([, value]) => value !== null && value !== undefined && value !== '');
          const attempts = r.attempts || [];
          return [
            closeButton(),
            el('h2', {class: classes('title', failed(r) && 'error')}, r.method + ' ' + r.url),
            el('dl', {class: 'facts'}, facts.map(([name, value]) => [el('dt', {}, name), el('dd', {}, value)])),
            el('h3', {}, 'Timing'), timing(r),
            el('h3', {}, 'Attempts'),
            attempts.length > 0 ? attempts.map(attempt) : el('p', {class: 'muted'}, 'None yet.'),
            bodyView('Request body', r.requestBody),
            bodyView('Response body', r.responseBody),
          ];
        }

        function timing(r) {
          const total = Math.max(endOf(r) - r.start, 1);
          const at = (t) => ((t - r.start) / total) * 100;
          const rows = (r.phases || []).map((p) => el('tr', {},
            el('td', {}, el('span', {class: 'swatch', 'data-phase': p.name}), PHASE_NAMES[p.name] || p.name),
            el('td', {class: 'num'}, '+' + ms(p.start - r.start)),
            el('td', {class: 'num'}, ms((p.end ?? endOf(r)) - p.start))));
          return el('div', {class: 'timing'}, el('div', {class: 'bar single'}, track(r, at)),
            el('table', {class: 'phases'}, el('tbody', {}, rows)));
        }

        function attempt(a) {
          const outcome = a.error ?? (a.status != null ? 'HTTP ' + a.status : 'pending');
          const took = a.end == null ? 'running' : ms(a.end - a.start);
          const retry = a.retryDelay != null ? 'retried after ' + ms(a.retryDelay) : null;
          return el('section', {
            class: classes('attempt', (a.error != null || a.status >= 400) && 'error'), 'data-attempt': a.number,
          },
          el('h4', {}, ['Attempt ' + a.number, outcome, took, retry].filter(Boolean).join(' · ')),
          headerList('Request headers', a.requestHeaders),
          headerList('Response headers', a.responseHeaders),
          el('div', {class: 'curl'}, copyButton(a.curl), el('pre', {}, a.curl)));
        }

        function headerList(title, list) {
          if (!list || list.length === 0) return el('p', {class: 'muted'}, title + ': none');
          return el('details', {open: ''}, el('summary', {}, title + ' (' + list.length + ')'),
            el('table', {class: 'headers'}, el('tbody', {}, list.map(([name, value]) =>
              el('tr', {}, el('td', {}, name), el('td', {}, value))))));
        }

        function copyButton(text) {
          const button = el('button', {type: 'button', class: 'copy'}, 'Copy');
          button.addEventListener('click', () => {
            if (!navigator.clipboard) return;
            navigator.clipboard.writeText(text).then(
              () => { button.textContent = 'Copied'; }, () => { button.textContent = 'Copy failed'; });
          });
          return button;
        }

        function bodyView(title, b) {
          if (!b) return [el('h3', {}, title), el('p', {class: 'muted'}, 'None.')];
          const note = b.truncated ? 'truncated, ' + b.size + ' bytes in full' : b.size + ' bytes';
          return [
            el('h3', {}, title, el('span', {class: classes('note', b.truncated && 'truncated')}, note)),
            b.text != null ? el('pre', {class: 'body'}, pretty(b.text, b.truncated))
              : el('p', {class: 'binary'}, 'binary, ' + b.size + ' bytes'),
          ];
        }

        function pretty(text, truncated) {
          if (truncated || !/^\s*[[{]/.test(text)) return text;
          try { return JSON.stringify(JSON.parse(text), null, 2); } catch (error) { return text; }
        }
        """#
}
