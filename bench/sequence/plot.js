// The latency-over-time plot of bench.js as a small SVG: one panel per run,
// the slowest and the 99th-percentile call of client 0 in each 10 ms window
// on a log scale, and a tick at the top for every block request it made.

const W = 900;
const PANEL_H = 220;
const M = { left: 70, right: 20, top: 40, bottom: 40 };
const WINDOW_MS = 10;
const Y_MIN = 100; // ns
const Y_MAX = 1e7;

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function windows(timeline) {
  const out = [];
  let cur = null;
  for (let i = 0; i < timeline.length; i += 2) {
    const w = Math.floor(timeline[i] / WINDOW_MS);
    if (!cur || cur.w !== w) {
      cur = { w, xs: [] };
      out.push(cur);
    }
    cur.xs.push(timeline[i + 1]);
  }
  return out.map(({ w, xs }) => {
    xs.sort((a, b) => a - b);
    return { t: (w + 0.5) * WINDOW_MS, max: xs[xs.length - 1], p99: xs[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))] };
  });
}

function panel(r, top, tMax) {
  const h = PANEL_H - M.top - M.bottom;
  const x = (t) => M.left + ((W - M.left - M.right) * t) / tMax;
  const y = (ns) => top + M.top + h * (1 - (Math.log10(Math.min(Math.max(ns, Y_MIN), Y_MAX)) - Math.log10(Y_MIN)) / (Math.log10(Y_MAX) - Math.log10(Y_MIN)));
  const ws = windows(r.timeline);
  const line = (key, color) => `<polyline fill="none" stroke="${color}" stroke-width="1.2" points="${ws.map((p) => `${x(p.t).toFixed(1)},${y(p[key]).toFixed(1)}`).join(' ')}"/>`;
  const parts = [`<text x="${M.left}" y="${top + 22}" font-size="14" font-weight="bold">${esc(r.label)}</text>`];
  for (const [ns, text] of [
    [100, '0.1 µs'],
    [1e3, '1 µs'],
    [5e3, '5 µs'],
    [1e4, '10 µs'],
    [1e5, '100 µs'],
    [1e6, '1 ms'],
    [1e7, '10 ms'],
  ]) {
    const yy = y(ns).toFixed(1);
    const dash = ns === 5e3 ? ' stroke-dasharray="4 3" stroke="#c00"' : ' stroke="#ddd"';
    parts.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${yy}" y2="${yy}"${dash}/>`,
      `<text x="${M.left - 6}" y="${yy}" font-size="11" text-anchor="end" dominant-baseline="middle">${text}</text>`,
    );
  }
  for (const t of r.refills) parts.push(`<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${top + M.top - 8}" y2="${top + M.top}" stroke="#2a7"/>`);
  for (let s = 0; s <= tMax / 1000; s += 0.5) {
    parts.push(`<text x="${x(s * 1000)}" y="${top + PANEL_H - M.bottom + 16}" font-size="11" text-anchor="middle">${s} s</text>`);
  }
  parts.push(line('max', '#e69f00'), line('p99', '#0072b2'));
  return parts.join('\n');
}

export function svgPlot(results) {
  const tMax = Math.max(...results.map((r) => r.timeline[r.timeline.length - 2] ?? 0), 1);
  const H = PANEL_H * results.length + 30;
  const body = results.map((r, i) => panel(r, i * PANEL_H, tMax)).join('\n');
  const legend = `<text x="${M.left}" y="${H - 10}" font-size="12"><tspan fill="#e69f00">■ slowest next() per ${WINDOW_MS} ms</tspan>   <tspan fill="#0072b2">■ p99 per ${WINDOW_MS} ms</tspan>   <tspan fill="#2a7">| block requested (client 0)</tspan>   <tspan fill="#c00">- - 5 µs</tspan></text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif">\n<title>Latency of snowmint/sequence next() over time, block requests marked</title>\n<rect width="100%" height="100%" fill="white"/>\n${body}\n${legend}\n</svg>\n`;
}
