/**
 * CPU time a server spends, read from /proc (Linux only; elsewhere no figure). Divided by the
 * requests of a load run it gives the server's CPU per request: unlike req/s, it hardly moves
 * when other programs share the machine, so it is the figure to compare between runs.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/**
 * utime + stime of one /proc/<pid>/stat, with its process group.
 * @param {string} pid
 * @returns {{ ppid: number, pgrp: number, ms: number } | null}
 */
function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: fields after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), pgrp: Number(fields[2]), ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/**
 * A function giving the CPU milliseconds used so far by process `pid`, or by every process of
 * the process group `pid` when `group` (the product: start.mjs, the API and the web server), or
 * by `pid` and its children when `children` (nginx: the master and its workers).
 * Returns null where /proc is not available.
 * @param {number} pid
 * @param {{ group?: boolean, children?: boolean }} [options]
 * @returns {(() => number) | null}
 */
export function cpuClock(pid, { group = false, children = false } = {}) {
  if (stat(String(pid)) === null) return null;
  if (!group && !children) return () => stat(String(pid))?.ms ?? 0;
  return () => {
    let total = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const s = stat(entry);
      if (s && (group ? s.pgrp === pid : s.ppid === pid || Number(entry) === pid)) total += s.ms;
    }
    return total;
  };
}
