extension InspectorPage {
    /// The page's script, in one strict-mode function so nothing leaks into the page's globals. It ends
    /// by rendering the embedded snapshot synchronously, so the rows exist before the load event.
    static var script: String {
        "\n(() => {\n" + [core, overview, detail, sections, har, live].joined(separator: "\n") + "\n})();\n"
    }

    /// Element building (the one way data reaches the DOM: as text), formatting, and the page's state.
    private static let core = #"""
        'use strict';
        const PHASE_NAMES = {
          queued: 'Queued', policies: 'Waiting on policies', wire: 'On the wire',
          decoding: 'Decoding', delivered: 'Delivered',
        };
        const MAX_WAITING = 5000;
        const token = document.body.dataset.token || '';
        const state = {
          requests: new Map(), streams: new Map(), transfers: new Map(), outbox: null,
          maxRequests: 0, dropped: 0, nowBase: 0, nowAt: 0, epoch: Date.now(),
        };
        const ui = {
          filter: '', paused: false, waiting: [], missed: false, count: 0, shown: 0,
          detail: new URLSearchParams(location.search).get('detail'), detailShown: undefined,
        };

        function api(path) { return path + '?token=' + encodeURIComponent(token); }

        // Strings become text nodes and attribute values, never markup: a URL or body cannot run.
        function el(tag, attributes, ...children) {
          const node = document.createElement(tag);
          for (const [name, value] of Object.entries(attributes || {})) {
            if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
          }
          for (const child of children.flat(Infinity)) {
            if (child !== null && child !== undefined && child !== false) node.append(child);
          }
          return node;
        }

        function classes(...names) { return names.filter(Boolean).join(' ') || null; }

        function ms(value) {
          if (value === null || value === undefined || !isFinite(value)) return '';
          const v = Math.max(0, value);
          if (v === 0) return '0 ms';
          if (v < 10) return v.toFixed(1) + ' ms';
          if (v < 1000) return Math.round(v) + ' ms';
          if (v < 60000) return (v / 1000).toFixed(2) + ' s';
          return Math.floor(v / 60000) + ' min ' + Math.round((v % 60000) / 1000) + ' s';
        }

        function bytes(n) {
          if (n === null || n === undefined) return '';
          if (n < 1024) return n + ' B';
          const units = ['KB', 'MB', 'GB'];
          let v = n / 1024, i = 0;
          while (v >= 1024 && i < units.length - 1) { v /= 1024; i += 1; }
          return (v < 10 ? v.toFixed(1) : Math.round(v)) + ' ' + units[i];
        }

        function shortURL(url) {
          try { const u = new URL(url); return u.host + u.pathname + u.search; } catch (error) { return url; }
        }

        // The inspector's clock, in its milliseconds, advanced by the page's own since the snapshot.
        function now() { return state.nowBase + (performance.now() - state.nowAt); }
        function endOf(r) { return r.end ?? Math.max(r.start, now()); }
        function failed(r) { return r.error != null || (r.status != null && r.status >= 400); }
        function statusText(r) {
          if (r.status != null) return String(r.status);
          if (r.error != null) return r.error;
          return r.end == null ? 'pending' : '';
        }

        function byId(list) { return new Map((list || []).map((item) => [item.id, item])); }

        function load(snapshot) {
          state.requests = byId(snapshot.requests);
          state.streams = byId(snapshot.streams);
          state.transfers = byId(snapshot.transfers);
          state.outbox = snapshot.outbox || null;
          state.maxRequests = snapshot.maxRequests || 0;
          state.dropped = snapshot.dropped || 0;
          state.nowBase = snapshot.now || 0;
          state.nowAt = performance.now();
          state.epoch = Date.now() - state.nowBase;
        }

        // One server-sent event's effect; the store's eviction is mirrored so the tab stays bounded too.
        function apply(name, data) {
          if (name === 'request') {
            state.requests.set(data.id, data);
            while (state.maxRequests > 0 && state.requests.size > state.maxRequests) {
              state.requests.delete(state.requests.keys().next().value);
              state.dropped += 1;
            }
          } else if (name === 'stream') {
            state.streams.set(data.id, data);
          } else if (name === 'transfer') {
            state.transfers.set(data.id, data);
          } else if (name === 'outbox') {
            state.outbox = data;
          } else if (name === 'clear') {
            state.requests.clear();
            state.streams.clear();
            state.transfers.clear();
          }
        }

        function visible() {
          const f = ui.filter;
          const matches = (r) => !f || [r.url, r.method, r.status ?? '', r.error ?? '']
            .some((value) => String(value).toLowerCase().includes(f));
          return [...state.requests.values()].filter(matches).sort((a, b) => a.start - b.start);
        }
        """#
}
