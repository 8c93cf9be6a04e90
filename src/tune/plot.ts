/**
 * The loss curve as a standalone SVG: training and validation loss by epoch, axes with tick
 * labels, a legend and a title. Plain text, no dependency, viewable in any browser.
 */
import type { CurvePoint } from './fit.js';

const W = 720;
const H = 420;
const M = { left: 80, right: 20, top: 40, bottom: 50 };

function ticks(lo: number, hi: number, count: number): number[] {
  const span = hi - lo || Math.abs(hi) || 1;
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function lossCurveSvg(curve: readonly CurvePoint[], title: string): string {
  const series: { name: string; color: string; pts: [number, number][] }[] = [
    { name: 'training', color: '#1f77b4', pts: curve.map((p) => [p.epoch, p.train]) },
  ];
  const val = curve.filter((p) => p.validation !== undefined).map((p): [number, number] => [p.epoch, p.validation!]);
  if (val.length > 0) series.push({ name: 'validation', color: '#d62728', pts: val });
  const all = series.flatMap((s) => s.pts);
  const x0 = Math.min(...all.map((p) => p[0]), 0);
  const x1 = Math.max(...all.map((p) => p[0]), 1);
  let y0 = Math.min(...all.map((p) => p[1]));
  let y1 = Math.max(...all.map((p) => p[1]));
  if (!Number.isFinite(y0)) [y0, y1] = [0, 1];
  const pad = (y1 - y0) * 0.05 || Math.abs(y1) * 0.01 || 0.01;
  y0 -= pad;
  y1 += pad;
  const px = (x: number): number => M.left + ((x - x0) / (x1 - x0)) * (W - M.left - M.right);
  const py = (y: number): number => H - M.bottom - ((y - y0) / (y1 - y0)) * (H - M.top - M.bottom);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  out.push(`<text x="${W / 2}" y="22" text-anchor="middle" font-size="15">${esc(title)}</text>`);
  for (const t of ticks(y0, y1, 6)) {
    const y = py(t).toFixed(1);
    out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y}" y2="${y}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${M.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${t.toPrecision(5)}</text>`);
  }
  for (const t of ticks(x0, x1, 8)) {
    const x = px(t).toFixed(1);
    out.push(`<line x1="${x}" x2="${x}" y1="${H - M.bottom}" y2="${H - M.bottom + 5}" stroke="black"/>`);
    out.push(`<text x="${x}" y="${H - M.bottom + 18}" text-anchor="middle">${t}</text>`);
  }
  out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}" stroke="black"/>`);
  out.push(`<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${H - M.bottom}" stroke="black"/>`);
  out.push(`<text x="${(M.left + W - M.right) / 2}" y="${H - 12}" text-anchor="middle">epoch</text>`);
  out.push(`<text transform="translate(18 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">mean squared error</text>`);
  series.forEach((s, k) => {
    const d = s.pts.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
    out.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.8"/>`);
    const ly = M.top + 8 + 18 * k;
    out.push(`<line x1="${W - M.right - 130}" x2="${W - M.right - 105}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2"/>`);
    out.push(`<text x="${W - M.right - 100}" y="${ly}" dominant-baseline="middle">${s.name}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
