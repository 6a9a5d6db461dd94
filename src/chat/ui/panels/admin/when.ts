import { useChat } from '../../chat-context.ts';
import { timeFormatter } from '../../time-format.ts';

/** A moment (seconds since the epoch) as a day and time in the user's time zone and clock. */
export function useWhen(): (ts: number) => string {
  const settings = useChat().session.realm.settings.value;
  const format = timeFormatter(settings.timezone, settings.twenty_four_hour_time);
  return (ts) => `${format.day(ts)}, ${format.time(ts)}`;
}
