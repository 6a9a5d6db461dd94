const DAY_MS = 24 * 60 * 60 * 1000;

/** Message times in the user's own timezone (their setting, else the browser's), 12 or 24 hours as they chose. */
export function timeFormatter(
  timezone: string,
  twentyFourHour: boolean,
): { time(ts: number): string; full(ts: number): string; day(ts: number): string; shortDay(ts: number): string; headerDay(ts: number): string } {
  const timeZone = zoneOf(timezone);
  const time = new Intl.DateTimeFormat(undefined, { timeZone, hour: 'numeric', minute: '2-digit', hour12: !twentyFourHour });
  const full = new Intl.DateTimeFormat(undefined, { timeZone, dateStyle: 'full', timeStyle: 'long', hour12: !twentyFourHour });
  const day = new Intl.DateTimeFormat(undefined, { timeZone, weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
  const monthDay = new Intl.DateTimeFormat(undefined, { timeZone, month: 'short', day: 'numeric' });
  const monthDayYear = new Intl.DateTimeFormat(undefined, { timeZone, month: 'short', day: 'numeric', year: 'numeric' });
  const year = new Intl.DateTimeFormat(undefined, { timeZone, year: 'numeric' });
  const shortDay = (ts: number) => (year.format(ts * 1000) === year.format(Date.now()) ? monthDay : monthDayYear).format(ts * 1000);
  return {
    time: (ts) => time.format(ts * 1000),
    full: (ts) => full.format(ts * 1000),
    day: (ts) => day.format(ts * 1000),
    // The year only when it is not this one, as upstream's lists of conversations write dates.
    shortDay,
    // Upstream's recipient bars: Today, Yesterday, else the short day.
    headerDay: (ts) => {
      const shown = day.format(ts * 1000);
      if (shown === day.format(Date.now())) return 'Today';
      if (shown === day.format(Date.now() - DAY_MS)) return 'Yesterday';
      return shortDay(ts);
    },
  };
}

/** The setting's zone when the platform knows it, else undefined: the browser's own. */
export function zoneOf(timezone: string): string | undefined {
  if (!timezone) return undefined;
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: timezone });
    return timezone;
  } catch {
    return undefined;
  }
}
