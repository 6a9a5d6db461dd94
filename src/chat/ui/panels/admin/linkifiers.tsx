import { useSignal } from '@preact/signals';
import { useChat } from '../../chat-context.ts';
import { attempt, notify } from '../../notices.ts';
import { FetchState, useFetched } from './use-fetched.tsx';
import { RemovableRow } from '../../removable-row.tsx';

/** GET /realm/linkifiers: a pattern and the link it makes. */
interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

/** The realm's linkifiers (spec 4.20): text matching a pattern becomes a link. Refetched after each change. */
export function Linkifiers() {
  const { session } = useChat();
  const linkifiers = useFetched(() => session.api.get<{ linkifiers: Linkifier[] }>('/realm/linkifiers').then((answer) => answer.linkifiers));
  const pattern = useSignal('');
  const urlTemplate = useSignal('');
  return (
    <section aria-labelledby="linkifiers">
      <h3 id="linkifiers">Linkifiers</h3>
      <FetchState what="the linkifiers" fetched={linkifiers} />
      {linkifiers.value?.length === 0 && <p class="hint">No linkifiers yet.</p>}
      {linkifiers.value && linkifiers.value.length > 0 && (
        <ul class="admin-list" aria-label="Linkifiers">
          {linkifiers.value.map((linkifier) => (
            <RemovableRow
              key={linkifier.id}
              action="Delete"
              label={`Delete the linkifier ${linkifier.pattern}`}
              danger
              onRemove={() => void attempt('Could not delete the linkifier', () => session.api.delete(`/realm/filters/${linkifier.id}`)).then(linkifiers.reload)}
            >
              <code>{linkifier.pattern}</code>
              <span class="hint admin-url">→ {linkifier.url_template}</span>
            </RemovableRow>
          ))}
        </ul>
      )}
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          void attempt('Could not add the linkifier', () =>
            session.api.post('/realm/filters', { pattern: pattern.value.trim(), url_template: urlTemplate.value.trim() }),
          ).then((done) => {
            if (!done) return;
            linkifiers.reload();
            notify('Linkifier added.');
            pattern.value = '';
            urlTemplate.value = '';
          });
        }}
      >
        <label>
          Pattern
          <input required class="admin-code" placeholder="#(?P<id>[0-9]+)" value={pattern.value} onInput={(event) => (pattern.value = event.currentTarget.value)} />
        </label>
        <label>
          URL template
          <input
            required
            class="admin-code"
            placeholder="https://github.com/org/repo/issues/{id}"
            value={urlTemplate.value}
            onInput={(event) => (urlTemplate.value = event.currentTarget.value)}
          />
        </label>
        <p class="hint">A Python regular expression with named groups, and a URL naming them in braces.</p>
        <div class="form-buttons">
          <button type="submit" class="primary">
            Add linkifier
          </button>
        </div>
      </form>
    </section>
  );
}
