/**
 * Global times, `<time:2024-01-01T10:00:00+01:00>` or `<time:1704099600>`: rendered as a `<time>`
 * element carrying the UTC instant, which clients show in each reader's own time zone.
 */
import type { TokenizerAndRendererExtension } from 'marked';
import { escapeText } from './html-escape.ts';

const GLOBAL_TIME = /^<time:([^>]*)>/;
const UNIX_SECONDS = /^-?\d+(?:\.\d+)?$/;
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function offsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.replace(':', '');
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || '0');
  return zone.startsWith('-') ? -minutes : minutes;
}

/** Milliseconds since the epoch, or undefined if unreadable. A time without a zone is UTC, as upstream. */
function parseGlobalTime(text: string): number | undefined {
  const trimmed = text.trim();
  if (UNIX_SECONDS.test(trimmed)) return Math.trunc(Number(trimmed)) * 1000;
  const iso = ISO_TIME.exec(trimmed);
  if (!iso) return undefined;
  const [, year, month, day, hour = '0', minute = '0', second = '0', zone] = iso;
  const fields = [Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)] as const;
  const utc = Date.UTC(...fields);
  const check = new Date(utc);
  // Date.UTC rolls "02-30" over into March; upstream refuses such dates.
  if (check.getUTCMonth() !== fields[1] || check.getUTCDate() !== fields[2] || fields[3] > 23 || fields[4] > 59 || fields[5] > 59) {
    return undefined;
  }
  return utc - offsetMinutes(zone) * 60_000;
}

function renderGlobalTime(text: string): string {
  const instant = parseGlobalTime(text);
  if (instant === undefined || !Number.isFinite(instant) || Math.abs(instant) > 8.64e15) {
    return `<span class="timestamp-error">Invalid time format: ${escapeText(text)}</span>`;
  }
  const datetime = new Date(instant).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `<time datetime="${datetime}">${escapeText(text)}</time>`;
}

export const globalTimeExtension: TokenizerAndRendererExtension = {
  name: 'globalTime',
  level: 'inline',
  start: (src) => src.indexOf('<time:'),
  tokenizer(src) {
    const match = GLOBAL_TIME.exec(src);
    return match ? { type: 'globalTime', raw: match[0], html: renderGlobalTime(match[1]) } : undefined;
  },
  renderer: (token) => token.html as string,
};
