import { useSignal } from '@preact/signals';
import { useChat } from '../../chat-context.ts';
import { attempt, notify } from '../../notices.ts';
import { ConfirmDialog } from '../../confirm-dialog.tsx';
import { FetchState, useFetched } from './use-fetched.tsx';
import { RemovableRow } from '../../removable-row.tsx';

/** GET /realm/profile_fields: one custom field. */
interface ProfileField {
  id: number;
  name: string;
  type: number;
  hint: string;
}

const FIELD_TYPES: Record<number, string> = {
  1: 'Short text',
  2: 'Long text',
  3: 'List of options',
  4: 'Date',
  5: 'Link',
  6: 'Person',
  7: 'External account',
  8: 'Pronouns',
};
/** The types that need no `field_data` (choices, account kinds), so this short form can create them. */
const CREATABLE = [1, 2, 4, 5, 6, 8];

/** The realm's custom profile fields (spec 4.10): list, add, delete. Refetched after each change. */
export function ProfileFields() {
  const { session } = useChat();
  const fields = useFetched(() => session.api.get<{ custom_fields: ProfileField[] }>('/realm/profile_fields').then((answer) => answer.custom_fields));
  const name = useSignal('');
  const hint = useSignal('');
  const fieldType = useSignal(1);
  const deleting = useSignal<ProfileField | null>(null);
  return (
    <section aria-labelledby="profile-fields">
      <h3 id="profile-fields">Custom profile fields</h3>
      <FetchState what="the profile fields" fetched={fields} />
      {fields.value?.length === 0 && <p class="hint">No custom fields: profiles show only the name, email and role.</p>}
      {fields.value && fields.value.length > 0 && (
        <ul class="admin-list" aria-label="Custom profile fields">
          {fields.value.map((field) => (
            <RemovableRow key={field.id} action="Delete" label={`Delete the field ${field.name}`} danger onRemove={() => (deleting.value = field)}>
              <span class="admin-item-title">{field.name}</span>
              <span class="hint">
                {FIELD_TYPES[field.type] ?? `Type ${field.type}`}
                {field.hint && ` · ${field.hint}`}
              </span>
            </RemovableRow>
          ))}
        </ul>
      )}
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          const created = name.value.trim();
          void attempt('Could not add the field', () =>
            session.api.post('/realm/profile_fields', { name: created, hint: hint.value.trim(), field_type: fieldType.value }),
          ).then((done) => {
            if (!done) return;
            fields.reload();
            notify(`Added the profile field “${created}”.`);
            name.value = '';
            hint.value = '';
          });
        }}
      >
        <label>
          Field label
          <input required value={name.value} onInput={(event) => (name.value = event.currentTarget.value)} />
        </label>
        <label>
          Hint for people filling it in
          <input value={hint.value} onInput={(event) => (hint.value = event.currentTarget.value)} />
        </label>
        <label>
          Field type
          <select value={String(fieldType.value)} onChange={(event) => (fieldType.value = Number(event.currentTarget.value))}>
            {CREATABLE.map((type) => (
              <option key={type} value={String(type)}>
                {FIELD_TYPES[type]}
              </option>
            ))}
          </select>
        </label>
        <div class="form-buttons">
          <button type="submit" class="primary">
            Add field
          </button>
        </div>
      </form>
      {deleting.value && (
        <ConfirmDialog
          title={`Delete the field ${deleting.value.name}?`}
          action="Delete"
          onClose={() => (deleting.value = null)}
          onConfirm={() => {
            const field = deleting.value;
            if (!field) return;
            void attempt('Could not delete the field', () => session.api.delete(`/realm/profile_fields/${field.id}`)).then(fields.reload);
          }}
        >
          <p>Everyone’s value for “{deleting.value.name}” is deleted with it.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
