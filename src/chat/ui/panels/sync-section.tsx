import { useChat } from '../chat-context.ts';

/** For a replica: the hub it syncs with, its state, the last error and the changes the hub refused. */
export function SyncSection() {
  const { session } = useChat();
  const replica = session.sync.replica.value;
  if (!replica) return null;
  return (
    <section class="sync-section" aria-label="Sync with the hub">
      <h3>Sync with the hub</h3>
      <p>
        This browser is a replica of <code>{replica.hubUrl}</code>: <span data-sync-status={replica.status}>{describe(replica.status, replica.pending)}</span>
      </p>
      {replica.lastError && <p class="sync-error">Last error: {replica.lastError}</p>}
      {replica.refusals.length > 0 && (
        <>
          <h4>Changes the hub refused (undone here)</h4>
          <ul class="sync-refusals">
            {replica.refusals.map((refusal) => (
              <li key={refusal.mutation_id}>
                <code>
                  {refusal.method} {refusal.path}
                </code>
                : {refusal.msg}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function describe(status: string, pending: number): string {
  if (status === 'offline') return pending > 0 ? `the hub cannot be reached; ${pending} pending.` : 'the hub cannot be reached.';
  return pending > 0 ? `sending ${pending} pending.` : 'everything is on the hub.';
}
