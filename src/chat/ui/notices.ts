import { signal } from '@preact/signals';
import { ApiFailure } from '../api/api-client.ts';

/** A short message to the person: an action's failure with the server's words, or a confirmation. */
export interface Notice {
  id: number;
  text: string;
  kind: 'error' | 'info';
}

export const notices = signal<Notice[]>([]);
let nextId = 1;
const SHOWN_MS = 6000;

export function notify(text: string, kind: Notice['kind'] = 'info'): void {
  const notice = { id: nextId++, text, kind };
  notices.value = [...notices.value, notice];
  setTimeout(() => (notices.value = notices.value.filter((n) => n.id !== notice.id)), SHOWN_MS);
}

/** Runs an action; a failure is shown (never swallowed) with the server's `msg`. Resolves whether it succeeded. */
export async function attempt(what: string, action: () => Promise<unknown>): Promise<boolean> {
  try {
    await action();
    return true;
  } catch (error) {
    notify(`${what}: ${error instanceof ApiFailure || error instanceof Error ? error.message : String(error)}`, 'error');
    return false;
  }
}
