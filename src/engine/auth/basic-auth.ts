import { unauthorized } from '../errors/api-error.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { RealmRow, UserRow } from '../storage/rows.ts';
import { API_KEY_PATTERN } from './passwords.ts';

/**
 * Headers that named an active user of a directory, by directory. A directory is replaced by any
 * write to the users or realm tables (a new key, a deactivation, a changed host), so a header it
 * resolved once resolves the same while it lasts: every request of a client skips the decode.
 */
const resolved = new WeakMap<RealmDirectory, Map<string, UserRow>>();
/** Bounds the headers remembered per directory; only valid ones are, but there may be many users. */
const MAX_RESOLVED = 1000;

/**
 * Resolves `Authorization: Basic base64(email:api_key)` to an active user. The email may be the
 * real one or the dummy `user{id}@{host}` address. Every failure is a 401 with the upstream
 * message and code.
 */
export function authenticate(directory: RealmDirectory, header: string | null): UserRow {
  if (!header) throw unauthorized('Missing authorization header for basic auth');
  let known = resolved.get(directory);
  const user = known?.get(header);
  if (user) return user;
  const found = resolve(directory, header);
  if (!known) resolved.set(directory, (known = new Map()));
  if (known.size >= MAX_RESOLVED) known.clear();
  known.set(header, found);
  return found;
}

function resolve(directory: RealmDirectory, header: string): UserRow {
  const { realm } = directory;
  const [scheme, encoded] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'basic' || !encoded) throw unauthorized('Invalid authorization header for basic auth');
  let decoded: string;
  try {
    decoded = new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    throw unauthorized('Invalid authorization header for basic auth');
  }
  const colon = decoded.lastIndexOf(':');
  if (colon < 0) throw unauthorized('Invalid authorization header for basic auth');
  const email = decoded.slice(0, colon).trim().toLowerCase();
  const apiKey = decoded.slice(colon + 1);
  if (!API_KEY_PATTERN.test(apiKey)) throw unauthorized('Malformed API key', 'INVALID_API_KEY');

  const user = directory.usersByApiKey.get(apiKey);
  if (!user || !emailNamesUser(email, user, realm)) throw unauthorized('Invalid API key', 'INVALID_API_KEY');
  if (!user.is_active) throw unauthorized('Account is deactivated', 'USER_DEACTIVATED');
  return user;
}

function emailNamesUser(email: string, user: UserRow, realm: RealmRow): boolean {
  return email === user.email_key || email === `user${user.id}@${realm.host}`.toLowerCase();
}
