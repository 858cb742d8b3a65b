extension InspectorPage {
    /// The page's style sheet: system fonts and colours only, so the page loads nothing.
    static let style = """
        :root {
          --bg: #ffffff; --fg: #1f2328; --muted: #656d76; --line: #d8dee4; --head: #f6f8fa;
          --hover: #eef4ff; --selected: #dbe9ff; --error: #cf222e; --error-bg: #fff0ee;
          --queued: #a4adb8; --policies: #e3a008; --wire: #2f81f7; --decoding: #8250df;
          --delivered: #1a7f37;
          color-scheme: light dark;
          font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --head: #161b22;
            --hover: #1c2733; --selected: #1f3350; --error: #ff7b72; --error-bg: #2d1517;
          }
        }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; background: var(--bg); color: var(--fg); }
        button, input { font: inherit; color: inherit; }
        button {
          padding: 3px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg);
          cursor: pointer;
        }
        button:hover { background: var(--hover); }
        button[aria-pressed="true"] { background: var(--selected); }
        #toolbar {
          position: sticky; top: 0; z-index: 2; display: flex; gap: 8px; align-items: center;
          height: 44px; padding: 0 12px; background: var(--head); border-bottom: 1px solid var(--line);
        }
        #toolbar h1 { margin: 0 8px 0 0; font-size: 14px; }
        #filter {
          flex: 0 1 320px; padding: 3px 8px; border: 1px solid var(--line); border-radius: 6px;
          background: var(--bg);
        }
        #waiting { color: var(--policies); }
        #summary { margin-left: auto; color: var(--muted); }
        #connection { color: var(--muted); }
        #connection::before { content: "\\25CF"; margin-right: 4px; }
        #connection.live::before { color: var(--delivered); }
        #fatal { padding: 8px 12px; background: var(--error-bg); color: var(--error); }
        main { display: grid; grid-template-columns: minmax(0, 1fr); }
        body.with-detail main { grid-template-columns: minmax(0, 1fr) minmax(380px, 40%); }
        #overview { min-width: 0; padding: 8px 12px 24px; }
        h2 {
          margin: 18px 0 6px; font-size: 12px; color: var(--muted); text-transform: uppercase;
          letter-spacing: 0.04em;
        }
        h3 { margin: 14px 0 4px; font-size: 13px; }
        h4 { margin: 0 0 4px; font-size: 12px; }
        table { width: 100%; border-collapse: collapse; }
        th, td {
          padding: 3px 6px; text-align: left; white-space: nowrap; border-bottom: 1px solid var(--line);
        }
        th { background: var(--head); font-weight: 600; }
        th.group { text-align: center; border-bottom: 0; }
        .num, td.duration, td.size, td.shared, td.retries, td.budget, td.rate {
          text-align: right; font-variant-numeric: tabular-nums;
        }
        td.url, td.status, td.last {
          max-width: 0; overflow: hidden; text-overflow: ellipsis;
        }
        #requests { table-layout: fixed; }
        #requests th { vertical-align: bottom; overflow: hidden; text-overflow: ellipsis; }
        #requests td { max-width: none; overflow: hidden; text-overflow: ellipsis; }
        #requests col.method { width: 72px; } #requests col.status { width: 112px; }
        #requests col.duration { width: 80px; } #requests col.size, #requests col.budget { width: 72px; }
        #requests col.rate { width: 84px; } #requests col.cache { width: 96px; }
        #requests col.shared { width: 72px; } #requests col.retries { width: 68px; }
        #requests col.account { width: 88px; }
        /* With the detail open, the queue and account columns give their room to the URL. */
        body.with-detail #requests :is(col, th, td):is(.budget, .rate, .account, .group) { display: none; }
        table.grid td.url { width: 45%; }
        td.method { font-weight: 600; }
        td.notable { font-weight: 700; }
        td.muted, .muted { color: var(--muted); }
        #requests tbody tr, #waterfall .bar { cursor: pointer; }
        #requests tbody tr:hover, #waterfall .bar:hover { background: var(--hover); }
        tr.error, .bar.error { background: var(--error-bg); }
        tr.error td, .bar.error .label, .title.error { color: var(--error); }
        tr.running td.status, tr.running td.duration { color: var(--muted); }
        #requests tbody tr.selected, #waterfall .bar.selected { background: var(--selected); }
        .empty { color: var(--muted); padding: 8px 0; }
        #legend { display: flex; gap: 14px; color: var(--muted); margin-bottom: 4px; }
        .swatch {
          display: inline-block; width: 10px; height: 10px; margin-right: 5px; border-radius: 2px;
          vertical-align: -1px; background: var(--line);
        }
        #axis, #waterfall .bar {
          display: grid; grid-template-columns: 300px minmax(0, 1fr) 64px; gap: 8px; align-items: center;
        }
        #waterfall .bar { height: 20px; padding: 0 2px; border-radius: 3px; }
        .bar .label {
          overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
          font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
        }
        .bar .time { color: var(--muted); text-align: right; font-variant-numeric: tabular-nums; }
        .track, .ticks { position: relative; height: 12px; }
        .ticks { height: 18px; border-bottom: 1px solid var(--line); }
        .tick {
          position: absolute; top: 0; bottom: 0; padding-left: 3px; border-left: 1px solid var(--line);
          color: var(--muted); font-size: 11px; white-space: nowrap;
        }
        .track .span { position: absolute; top: 5px; height: 2px; background: var(--line); }
        .track .phase { position: absolute; top: 0; height: 12px; min-width: 2px; border-radius: 2px; }
        [data-phase="queued"] { background: var(--queued); }
        [data-phase="policies"] { background: var(--policies); }
        [data-phase="wire"] { background: var(--wire); }
        [data-phase="decoding"] { background: var(--decoding); }
        [data-phase="delivered"] { background: var(--delivered); }
        #detail {
          position: sticky; top: 44px; height: calc(100vh - 44px); overflow: auto; padding: 4px 14px 24px;
          border-left: 1px solid var(--line);
        }
        #detail .close { float: right; margin-top: 10px; }
        #detail .title { font-size: 14px; text-transform: none; letter-spacing: 0; color: var(--fg);
          overflow-wrap: anywhere; margin-right: 40px; }
        #detail .bar.single { margin: 6px 0; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; overflow-wrap: anywhere; }
        .attempt { margin: 8px 0; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; }
        .attempt.error { border-color: var(--error); }
        .attempt.error h4 { color: var(--error); }
        details { margin: 4px 0; }
        summary { cursor: pointer; color: var(--muted); }
        table.headers td { white-space: normal; overflow-wrap: anywhere; vertical-align: top; }
        table.headers td:first-child { width: 34%; color: var(--muted); }
        pre {
          margin: 4px 0; padding: 6px 8px; max-height: 320px; overflow: auto; white-space: pre-wrap;
          overflow-wrap: anywhere; background: var(--head); border: 1px solid var(--line); border-radius: 6px;
          font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
        }
        .curl { position: relative; }
        .curl .copy { position: absolute; top: 4px; right: 4px; padding: 0 6px; font-size: 11px; }
        .note { margin-left: 8px; font-weight: normal; color: var(--muted); }
        .note.truncated { color: var(--error); }
        .binary { color: var(--muted); font-style: italic; }
        .chips { display: flex; gap: 8px; }
        .chip { padding: 1px 10px; border: 1px solid var(--line); border-radius: 10px; }
        .chip.error { color: var(--error); border-color: var(--error); }
        progress { width: 160px; vertical-align: middle; }
        """
}
