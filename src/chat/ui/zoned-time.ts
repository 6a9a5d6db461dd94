/**
 * `datetime-local` values (a wall-clock time without an offset) read and written on the clock of
 * the user's `timezone` setting, the zone every other time in the app is shown in.
 */

/** The zone's short name at that instant (e.g. "CST"), for the field's hint. */
export function zoneName(ms: number, timeZone: string | undefined): string {
  const parts = new Intl.DateTimeFormat(undefined, { timeZone, timeZoneName: 'short' }).formatToParts(ms);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
}

function wallClock(ms: number, timeZone: string | undefined) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(ms);
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
  return { year: field('year'), month: field('month'), day: field('day'), hour: field('hour'), minute: field('minute'), second: field('second') };
}

/** How far the zone's clock is ahead of UTC at that instant, in ms. */
function offsetAt(ms: number, timeZone: string | undefined): number {
  const clock = wallClock(ms, timeZone);
  return Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second) - Math.floor(ms / 1000) * 1000;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The `datetime-local` value showing that instant on the zone's clock, to the minute. */
export function toInputValue(ms: number, timeZone: string | undefined): string {
  const clock = wallClock(ms, timeZone);
  return `${clock.year}-${pad(clock.month)}-${pad(clock.day)}T${pad(clock.hour)}:${pad(clock.minute)}`;
}

/** The instant (ms) a `datetime-local` value names on the zone's clock; NaN for no value. */
export function fromInputValue(value: string, timeZone: string | undefined): number {
  const match = /^(\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!match) return Number.NaN;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // The offset is read again at the first guess: a daylight-saving change may lie between.
  const guess = asUtc - offsetAt(asUtc, timeZone);
  return asUtc - offsetAt(guess, timeZone);
}
