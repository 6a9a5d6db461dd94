import { useSignal } from '@preact/signals';
import { useEffect, useId } from 'preact/hooks';
import { FIELD_TYPE, personIds, type ProfileField } from '../../state/profile-fields.ts';
import { useChat } from '../chat-context.ts';
import { useCommittedChange } from '../committed-change.ts';
import { attempt, notify } from '../notices.ts';

/**
 * My own value of each of the realm's custom profile fields, as upstream's profile settings:
 * each field is saved when it is left (or a choice made), an emptied one is cleared.
 */
export function MyProfileFields() {
  const { session } = useChat();
  const fields = session.realm.profileFields.fields.value;
  if (fields.length === 0) return null;
  return (
    <div class="stacked-form my-profile-fields" role="group" aria-labelledby="my-profile-fields">
      <h4 id="my-profile-fields">Profile fields</h4>
      <p class="hint">They show on your card. Each is saved as you leave it.</p>
      {fields.map((field) => (
        <FieldSetting key={field.id} field={field} />
      ))}
    </div>
  );
}

function FieldSetting({ field }: { field: ProfileField }) {
  const { session } = useChat();
  const realm = session.realm;
  const hintId = useId();
  const stored = realm.profileFields.value(realm.me, field.id)?.value ?? '';
  // Upstream's Person field may hold several people; this form sets one.
  const saved = field.type === FIELD_TYPE.USER ? String(personIds(stored)[0] ?? '') : stored;
  /** What the person typed or chose, until the server's value changes (their save arriving as an event). */
  const draft = useSignal<string | null>(null);
  useEffect(() => {
    draft.value = null;
  }, [saved]);
  const shown = draft.value ?? saved;
  const locked = !field.editableByUser && !realm.isAdmin.value;

  const commit = (text: string): void => {
    const value = field.type === FIELD_TYPE.USER ? text : text.trim();
    if (value === saved) return;
    if (value === '') {
      void attempt(`Could not clear “${field.name}”`, () => session.api.delete('/users/me/profile_data', { data: [field.id] })).then(
        (done) => done && notify(`Cleared “${field.name}”.`),
      );
      return;
    }
    const data = [{ id: field.id, value: field.type === FIELD_TYPE.USER ? [Number(value)] : value }];
    void attempt(`Could not save “${field.name}”`, () => session.api.patch('/users/me/profile_data', { data })).then(
      (done) => done && notify(`Saved “${field.name}”.`),
    );
  };
  const common = {
    disabled: locked,
    'aria-describedby': field.hint || locked ? hintId : undefined,
  };
  // Saved when left (or Enter in a one-line field), not at each keystroke.
  const committed = useCommittedChange<HTMLInputElement & HTMLTextAreaElement>(commit);
  const typed = {
    ...common,
    ref: committed,
    value: shown,
    // The server's limits on text values (upstream's): none on a link, which must be a URL.
    maxLength: field.type === FIELD_TYPE.LONG_TEXT ? 500 : field.type === FIELD_TYPE.URL ? undefined : 50,
    onInput: (event: Event) => (draft.value = (event.currentTarget as HTMLInputElement | HTMLTextAreaElement).value),
  };
  const chosen = {
    ...common,
    value: shown,
    onChange: (event: Event) => {
      const value = (event.currentTarget as HTMLSelectElement).value;
      draft.value = value;
      commit(value);
    },
  };

  let control;
  switch (field.type) {
    case FIELD_TYPE.LONG_TEXT:
      control = <textarea rows={3} {...typed} />;
      break;
    case FIELD_TYPE.URL:
      control = <input type="url" {...typed} />;
      break;
    case FIELD_TYPE.DATE:
      // Saved when left: while its parts are typed, a date input passes through other dates
      // (and reads '' while one part is being retyped).
      control = <input type="date" {...common} value={shown} onInput={(event) => (draft.value = event.currentTarget.value)} onBlur={(event) => commit(event.currentTarget.value)} />;
      break;
    case FIELD_TYPE.SELECT:
      control = (
        <select {...chosen}>
          <option value="">(not set)</option>
          {field.choices.map((choice) => (
            <option key={choice.key} value={choice.key}>
              {choice.text}
            </option>
          ))}
        </select>
      );
      break;
    case FIELD_TYPE.USER: {
      const people = [...realm.users.value.values()].filter((user) => user.is_active && !user.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name));
      control = (
        <select {...chosen}>
          <option value="">(nobody)</option>
          {people.map((user) => (
            <option key={user.user_id} value={String(user.user_id)}>
              {user.full_name}
            </option>
          ))}
        </select>
      );
      break;
    }
    default:
      control = <input type="text" {...typed} />;
  }
  return (
    <div class="profile-field-setting">
      <label>
        {field.name}
        {control}
      </label>
      {(field.hint || locked) && (
        <p class="hint" id={hintId}>
          {[field.hint, locked && 'Only administrators can change this field.'].filter(Boolean).join(' ')}
        </p>
      )}
    </div>
  );
}
