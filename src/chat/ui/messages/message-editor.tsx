import { useSignal } from '@preact/signals';
import { useEffect, useId, useRef } from 'preact/hooks';
import type { Message } from '../../api/wire-types.ts';
import { ApiFailure } from '../../api/api-client.ts';
import { useChat } from '../chat-context.ts';
import { editing, rawContent } from './message-operations.ts';
import { LengthIndicator } from '../length-indicator.tsx';
import { charactersLeft, messageTooLong } from '../../state/message-length.ts';
import { formatKey } from '../field-edits.ts';

/**
 * Edits a message's content in place; a refusal stays visible with the server's message. Past the
 * realm's length limit it says by how much, and does not save.
 */
export function MessageEditor({ message }: { message: Message }) {
  const { session } = useChat();
  const text = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const saving = useSignal(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const lengthId = useId();
  const maxLength = session.realm.maxMessageLength.value;
  const left = charactersLeft(text.value ?? '', maxLength);
  const overLimit = left !== null && left < 0;

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
    if (overLimit) {
      error.value = messageTooLong(maxLength);
      return;
    }
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
        aria-invalid={overLimit}
        aria-describedby={left === null ? undefined : lengthId}
        onInput={(event) => (text.value = event.currentTarget.value)}
        onKeyDown={(event) => {
          event.stopPropagation();
          if (formatKey(event, event.currentTarget)) return;
          if (event.key === 'Escape') editing.value = null;
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void save();
        }}
      />
      <LengthIndicator id={lengthId} left={left} max={maxLength} />
      {error.value && (
        <p class="form-error" role="alert">
          {error.value}
        </p>
      )}
      <div class="form-buttons">
        <button type="submit" class="primary" disabled={saving.value || text.value === null || overLimit} title={overLimit ? messageTooLong(maxLength) : undefined}>
          Save
        </button>
        <button type="button" onClick={() => (editing.value = null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
