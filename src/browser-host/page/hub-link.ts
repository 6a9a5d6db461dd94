import type { EngineConnection } from './engine-connection.ts';
import { SYNC_STATUS_CHANNEL } from '../protocol/engine-control.ts';

/**
 * `/?sync=<hub URL>` (runtime contract 4): makes this browser a replica of the hub. Where a
 * realm of this browser's own (or a replica of another hub) would be deleted, the page asks
 * first with `window.confirm` (the browser's own dialog, named by its text); refused, nothing
 * changes. Either way the parameter is then dropped: the engine worker remembers the hub, so a
 * reload stays a replica without it.
 */
export async function joinRequestedHub(engine: EngineConnection): Promise<void> {
  const url = new URL(location.href);
  const hub = url.searchParams.get('sync');
  if (hub === null) return;
  if (!/^https?:\/\//i.test(hub) || !URL.canParse(hub)) throw new Error(`?sync= needs the http(s) URL of a hub, not "${hub}"`);
  if ((await engine.joinHub(hub, false)) === 'needs-consent' && window.confirm(consentQuestion(hub))) {
    await engine.joinHub(hub, true);
  }
  url.searchParams.delete('sync');
  history.replaceState(history.state, '', url);
}

export const consentQuestion = (hub: string): string =>
  `This browser already holds a chat. Replace it with a copy of the chat at ${hub}? Everything stored in this browser's chat is deleted.`;

/** Keeps `<html data-sync>` at the replica's status (`online`, `offline`, `pending:N`) once someone has logged in; absent on a browser that is no replica. */
export async function showSyncStatus(engine: EngineConnection): Promise<void> {
  const root = document.documentElement;
  const channel = new BroadcastChannel(SYNC_STATUS_CHANNEL);
  let heard = false;
  channel.onmessage = ({ data }: MessageEvent<string>) => {
    heard = true;
    root.dataset.sync = data;
  };
  const state = await engine.replicaState();
  if (!state) {
    channel.close();
    return;
  }
  if (!heard && state.status !== null) root.dataset.sync = state.status;
}
