import { signal } from '@preact/signals';

/** One line of the API log panel: the app's own calls, or every tab's as the in-browser server saw them. */
export interface ApiLogEntry {
  at: number;
  source: 'app' | 'server' | 'event';
  method: string;
  path: string;
  status: number;
  ms: number;
}

const LIMIT = 300;

/** The traffic the panel shows, newest first; filled whether or not the panel is open. */
class ApiLog {
  readonly entries = signal<ApiLogEntry[]>([]);

  add(entry: Omit<ApiLogEntry, 'at'>): void {
    this.entries.value = [{ ...entry, at: Date.now() }, ...this.entries.value.slice(0, LIMIT - 1)];
  }
}

export const apiLog = new ApiLog();
