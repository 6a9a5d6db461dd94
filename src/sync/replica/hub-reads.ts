import { API_PREFIX } from '../../engine/engine.ts';
import { HUB_READ_PATH, type HubReadBody, isProvisionalId } from '../protocol.ts';

/** A relayed read's path below `/api/v1/` and its query, as the hub takes them. */
export type RelayedRead = Omit<HubReadBody, 'hub_id' | 'epoch'>;

/**
 * The request's path and query if it is a read only the hub can answer (`HUB_READ_PATH`); null
 * for any other. A provisional message's read receipts stay local: the hub has no such message
 * yet, and no one else can have read it.
 */
export function hubReadRequest(request: Request): RelayedRead | null {
  const url = new URL(request.url);
  if (request.method !== 'GET' || !url.pathname.startsWith(`${API_PREFIX}/`)) return null;
  const path = url.pathname.slice(API_PREFIX.length + 1);
  if (!HUB_READ_PATH.test(path)) return null;
  const messageId = /^messages\/(\d+)\//.exec(path)?.[1];
  if (messageId !== undefined && isProvisionalId(Number(messageId))) return null;
  return { path, params: Object.fromEntries(url.searchParams) };
}
