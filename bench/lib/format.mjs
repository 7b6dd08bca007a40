/**
 * Plain-text tables (aligned columns, numbers right-aligned) and number formatting.
 */

/** @param {number} bytes */
export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** @param {number} value @param {number} [digits] */
export const num = (value, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–';

/**
 * Prints a table: header row, rule, rows. Cells that look numeric are right-aligned.
 * @param {string[]} headers
 * @param {(string | number)[][]} rows
 * @param {string} [indent]
 * @param {(line: string) => void} [out] where the lines go (default: console.log)
 */
export function printTable(headers, rows, indent = '  ', out = console.log) {
  const cells = rows.map((row) => row.map((cell) => String(cell)));
  const widths = headers.map((header, i) => Math.max(header.length, ...cells.map((row) => (row[i] ?? '').length)));
  const numeric = headers.map((_, i) => cells.length > 0 && cells.every((row) => /^[-–\d.,%×\s]*(KiB|ms|x|×)?$/.test(row[i] ?? '')));
  const line = (/** @type {string[]} */ row) =>
    indent +
    row
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  out(line(headers));
  out(indent + widths.map((w) => '─'.repeat(w)).join('  '));
  for (const row of cells) out(line(row));
}
