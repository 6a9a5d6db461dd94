import { useSignal } from '@preact/signals';
import { useChat } from '../chat-context.ts';
import { SyncSection } from './sync-section.tsx';

/**
 * For trainers and demos, when the server runs in this browser: where it runs, reset to the
 * scenario, load another, export the realm to a file and import one back. Anything that
 * replaces the realm asks first; every tab then logs in again (the old accounts' keys are gone).
 */
export function RealmToolsPanel() {
  const { local } = useChat();
  const outcome = useSignal<{ kind: 'working' | 'done' | 'failed'; text: string } | null>(null);
  if (!local) return <p class="hint">The realm tools work on the server in this browser; this tab uses another server.</p>;
  const server = local;

  async function run(what: string, action: () => Promise<string>): Promise<void> {
    outcome.value = { kind: 'working', text: 'Working…' };
    try {
      outcome.value = { kind: 'done', text: await action() };
    } catch (error) {
      outcome.value = { kind: 'failed', text: `${what}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  function replaceWith(name: string): void {
    if (!confirm(`Replace the whole realm with the scenario “${name}”? Export it first to keep it.`)) return;
    void run('The realm was not replaced', async () => {
      await server.loadScenario(name);
      return `Loaded the scenario “${name}”.`;
    });
  }

  return (
    <div class="realm-tools" inert={outcome.value?.kind === 'working'}>
      <p>{server.where}</p>
      <SyncSection />
      <div class="form-buttons wrap">
        <button type="button" onClick={() => replaceWith(server.currentScenario())}>
          Reset to “{server.currentScenario()}”
        </button>
        <label class="inline">
          Load scenario
          <select
            value=""
            onChange={(event) => {
              const name = event.currentTarget.value;
              event.currentTarget.value = '';
              if (name) replaceWith(name);
            }}
          >
            <option value="" disabled>
              Choose…
            </option>
            {server.scenarios.map((scenario) => (
              <option key={scenario.name} value={scenario.name}>
                {scenario.title}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div class="form-buttons wrap">
        <button type="button" onClick={() => void run('Export failed', () => server.exportRealm())}>
          Export realm
        </button>
        <label class="button-like">
          Import realm…
          <input
            type="file"
            accept=".json,application/json"
            class="visually-hidden"
            onChange={(event) => {
              const input = event.currentTarget;
              const file = input.files?.[0];
              // Cleared, so that choosing the same file again imports it again.
              input.value = '';
              if (!file || !confirm(`Replace the whole realm with the one in ${file.name}? Export it first to keep it.`)) return;
              void run('The realm was not replaced', async () => {
                await server.importRealm(file);
                return `Imported the realm from ${file.name}.`;
              });
            }}
          />
        </label>
      </div>
      {outcome.value && (
        <p class={`outcome ${outcome.value.kind}`} role="status" data-outcome={outcome.value.kind}>
          {outcome.value.text}
        </p>
      )}
      <p class="hint">
        <a href="/console.html" target="_blank" rel="noopener">
          Server console
        </a>{' '}
        — the realm’s people with their credentials, storage used, and the server’s logs.
      </p>
    </div>
  );
}
