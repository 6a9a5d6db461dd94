import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { ReplicaSync } from '../../state/sync-state.ts';
import { useChat } from '../chat-context.ts';

type State = 'online' | 'offline' | 'reconnecting' | 'pending';

/**
 * Where the server runs (this browser, or another address), whether the page is offline or
 * reconnecting, and for a replica its sync with the hub: synced, offline, N changes pending,
 * the last error.
 */
export function ServerIndicator({ server }: { server: string }) {
  const { session } = useChat();
  const online = useSignal(navigator.onLine);
  useEffect(() => {
    const update = () => (online.value = navigator.onLine);
    addEventListener('online', update);
    addEventListener('offline', update);
    return () => {
      removeEventListener('online', update);
      removeEventListener('offline', update);
    };
  }, []);
  const where = server ? new URL(server).host : 'this browser';
  const replica = session.sync.replica.value;
  const { state, text, detail } =
    session.connection.value === 'reconnecting'
      ? { state: 'reconnecting' as State, text: 'reconnecting', detail: 'Reconnecting to the server…' }
      : replica
        ? syncState(replica)
        : online.value
          ? { state: 'online' as State, text: 'online', detail: 'Connected' }
          : { state: 'offline' as State, text: 'offline', detail: server ? 'Offline: the server cannot be reached' : 'Offline — the server in this browser keeps working' };
  return (
    <p class={`server-indicator ${state}`} title={detail} data-state={state} role="status" aria-label={`Server: ${where}, ${detail}`}>
      <span class="dot" aria-hidden="true" />
      Server: {where}
      <span class="state-text"> · {text}</span>
    </p>
  );
}

function syncState(replica: ReplicaSync): { state: State; text: string; detail: string } {
  const hub = hubHost(replica.hubUrl);
  const error = replica.lastError ? ` Last error: ${replica.lastError}` : '';
  if (replica.status === 'offline') {
    const waiting = replica.pending > 0 ? `; ${changes(replica.pending)} waiting` : '';
    return { state: 'offline', text: replica.pending > 0 ? `hub offline, ${replica.pending} pending` : 'hub offline', detail: `The hub ${hub} cannot be reached: this browser keeps working${waiting}.${error}` };
  }
  if (replica.pending > 0) {
    return { state: 'pending', text: `${replica.pending} pending`, detail: `Sending ${changes(replica.pending)} to the hub ${hub}.${error}` };
  }
  return { state: 'online', text: 'synced', detail: `Synced with the hub ${hub}.${error}` };
}

function hubHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url || 'the hub';
  }
}

function changes(count: number): string {
  return `${count} ${count === 1 ? 'change' : 'changes'}`;
}
