/**
 * A page built to stall HTML parsers: `start` (ordinary markup), then 200 KB of unclosed `<div>`.
 * node-html-parser 9.0.7 spends about 28 s on it (400 KB: 157 s); Radar's hand-written
 * HTML-to-text reads it in one pass.
 */
export function hostileHtml(start: string): string {
  return `<!DOCTYPE html><html><body>${start}${"<div>".repeat(40_000)}`;
}
