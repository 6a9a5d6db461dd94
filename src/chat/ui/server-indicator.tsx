import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { useChat } from './chat-context.ts';

/** Where the server runs (this browser, or another address), and whether the page is offline or reconnecting. */
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
  const state = session.connection.value === 'reconnecting' ? 'reconnecting' : online.value ? 'online' : 'offline';
  const detail =
    state === 'reconnecting' ? 'Reconnecting to the server…' : state === 'offline' ? (server ? 'Offline: the server cannot be reached' : 'Offline — the server in this browser keeps working') : 'Connected';
  return (
    <p class={`server-indicator ${state}`} title={detail} data-state={state}>
      <span class="dot" aria-hidden="true" />
      Server: {where}
      <span class="state-text"> · {state}</span>
    </p>
  );
}
