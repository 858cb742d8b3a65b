extension InspectorPage {
    /// "Export HAR": a HAR 1.2 log of the requests shown, built in the page and saved through a Blob URL.
    static let har = #"""
        function exportHAR() {
          const log = {
            log: {version: '1.2', creator: {name: 'NetworkInspector', version: '1.0'}, pages: [],
              entries: visible().map(harEntry)},
          };
          const url = URL.createObjectURL(new Blob([JSON.stringify(log, null, 2)], {type: 'application/json'}));
          const name = 'network-inspector-' + new Date().toISOString().replace(/[:.]/g, '-') + '.har';
          const link = el('a', {href: url, download: name});
          document.body.append(link);
          link.click();
          link.remove();
          setTimeout(() => URL.revokeObjectURL(url), 60000);
        }

        function phaseTime(r, names) {
          return (r.phases || []).filter((p) => names.includes(p.name))
            .reduce((sum, p) => sum + Math.max(0, (p.end ?? endOf(r)) - p.start), 0);
        }

        function harHeaders(list) { return (list || []).map(([name, value]) => ({name, value})); }

        function headerValue(list, name) {
          const found = (list || []).find(([key]) => key.toLowerCase() === name);
          return found ? found[1] : undefined;
        }

        function harContent(b, type) {
          const content = {size: b ? b.size : 0, mimeType: type || (b ? 'application/octet-stream' : '')};
          if (b && b.text != null) content.text = b.text;
          else if (b && b.base64 != null) { content.text = b.base64; content.encoding = 'base64'; }
          if (b && b.truncated) content.comment = 'truncated by the inspector: ' + b.size + ' bytes in full';
          return content;
        }

        // HAR's timings from the phases: queued and policies are "blocked", decoding and delivery
        // "receive", the rest of the request's time "wait" (the layer does not see DNS or TLS apart).
        function harEntry(r) {
          const attempts = r.attempts || [];
          const last = attempts[attempts.length - 1] || {};
          const blocked = phaseTime(r, ['queued', 'policies']);
          const receive = phaseTime(r, ['decoding', 'delivered']);
          const wait = Math.max(0, endOf(r) - r.start - blocked - receive);
          let queryString = [];
          try {
            queryString = [...new URL(r.url).searchParams].map(([name, value]) => ({name, value}));
          } catch (error) { /* not an absolute URL: no query to list */ }
          const entry = {
            startedDateTime: new Date(state.epoch + r.start).toISOString(),
            time: blocked + wait + receive,
            request: {
              method: r.method, url: r.url, httpVersion: 'HTTP/1.1', cookies: [],
              headers: harHeaders(last.requestHeaders), queryString, headersSize: -1,
              bodySize: r.requestBody ? r.requestBody.size : 0,
            },
            response: {
              status: r.status ?? 0, statusText: '', httpVersion: 'HTTP/1.1', cookies: [],
              headers: harHeaders(last.responseHeaders),
              content: harContent(r.responseBody, headerValue(last.responseHeaders, 'content-type')),
              redirectURL: '', headersSize: -1, bodySize: r.responseBody ? r.responseBody.size : -1,
            },
            cache: {},
            timings: {blocked, dns: -1, connect: -1, send: 0, wait, receive, ssl: -1},
            _cache: r.cache, _sharedBy: r.sharedBy, _retries: r.retries, _account: r.account,
          };
          if (r.requestBody) {
            const body = harContent(r.requestBody, headerValue(last.requestHeaders, 'content-type'));
            entry.request.postData = {mimeType: body.mimeType, text: body.text ?? ''};
            if (body.encoding) entry.request.postData._encoding = body.encoding;
          }
          if (r.error != null) entry.response._error = r.error;
          return entry;
        }
        """#
}
