import { del, get, set } from 'idb-keyval';
import type { Credentials } from '../api/api-client.ts';

/** This tab's login: kept across its reloads, not seen by other tabs (runtime contract 5). */
const TAB_KEY = 'offline-realm:login';
/** Whoever logged in last in this browser: what a new tab opens as. */
const LAST_KEY = 'chat:last-login';

export interface SavedLogin extends Credentials {
  fullName: string;
}

function isLogin(value: unknown): value is SavedLogin {
  const login = value as Partial<SavedLogin> | null;
  return typeof login?.email === 'string' && typeof login.apiKey === 'string' && typeof login.server === 'string';
}

/** The tab's own login, else the browser's last one. */
export async function savedLogin(): Promise<SavedLogin | null> {
  try {
    const tab: unknown = JSON.parse(sessionStorage.getItem(TAB_KEY) ?? 'null');
    if (isLogin(tab)) return tab;
  } catch {
    // A damaged entry is no login.
  }
  const last: unknown = await get(LAST_KEY).catch(() => null);
  return isLogin(last) ? last : null;
}

export async function rememberLogin(login: SavedLogin): Promise<void> {
  sessionStorage.setItem(TAB_KEY, JSON.stringify(login));
  await set(LAST_KEY, login).catch(() => undefined);
}

/** Logging out ends this tab's login, and the browser's last one if it was the same person. */
export async function forgetLogin(login: SavedLogin): Promise<void> {
  sessionStorage.removeItem(TAB_KEY);
  const last: unknown = await get(LAST_KEY).catch(() => null);
  if (isLogin(last) && last.email === login.email && last.server === login.server) await del(LAST_KEY).catch(() => undefined);
}
