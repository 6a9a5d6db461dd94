import { useSignal } from '@preact/signals';
import type { User } from '../../../api/wire-types.ts';

interface Props {
  label: string;
  /** Who may be added, in the order offered. */
  candidates: readonly User[];
  /** Adds the person; the choice is cleared once it is done. */
  onAdd(userId: number): Promise<boolean>;
}

/** A person chosen from a list, then Add: a group's members, a channel's subscribers. */
export function AddPersonForm({ label, candidates, onAdd }: Props) {
  const chosen = useSignal('');
  return (
    <form
      class="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen.value) void onAdd(Number(chosen.value)).then((done) => done && (chosen.value = ''));
      }}
    >
      <label>
        {label}
        <select value={chosen.value} onChange={(event) => (chosen.value = event.currentTarget.value)}>
          <option value="">Choose a person</option>
          {candidates.map((user) => (
            <option key={user.user_id} value={user.user_id}>
              {user.full_name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={!chosen.value}>
        Add
      </button>
    </form>
  );
}
