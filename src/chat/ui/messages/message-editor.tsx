import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { Message } from '../../api/wire-types.ts';
import { ApiFailure } from '../../api/api-client.ts';
import { useChat } from '../chat-context.ts';
import { editing, rawContent } from './message-operations.ts';

/** Edits a message's content in place; a refusal stays visible with the server's message. */
export function MessageEditor({ message }: { message: Message }) {
  const { session } = useChat();
  const text = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const saving = useSignal(false);
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    rawContent(session, message.id).then(
      (source) => {
        text.value = source;
        requestAnimationFrame(() => box.current?.focus());
      },
      (failure: unknown) => (error.value = failure instanceof Error ? failure.message : String(failure)),
    );
  }, [message.id]);

  async function save(): Promise<void> {
    if (text.value === null) return;
    saving.value = true;
    try {
      await session.api.patch(`/messages/${message.id}`, { content: text.value });
      editing.value = null;
    } catch (failure) {
      error.value = failure instanceof ApiFailure || failure instanceof Error ? failure.message : String(failure);
    } finally {
      saving.value = false;
    }
  }

  return (
    <form
      class="message-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <textarea
        ref={box}
        aria-label="Edit message"
        value={text.value ?? ''}
        disabled={text.value === null}
        onInput={(event) => (text.value = event.currentTarget.value)}
        onKeyDown={(event) => {
          event.stopPropagation();
          if (event.key === 'Escape') editing.value = null;
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void save();
        }}
      />
      {error.value && (
        <p class="form-error" role="alert">
          {error.value}
        </p>
      )}
      <div class="form-buttons">
        <button type="submit" class="primary" disabled={saving.value || text.value === null}>
          Save
        </button>
        <button type="button" onClick={() => (editing.value = null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
