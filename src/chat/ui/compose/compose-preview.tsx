import { type Signal, useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { ApiFailure } from '../../api/api-client.ts';
import { useChat } from '../chat-context.ts';
import { messageHtml } from '../message-html.ts';
import { openInlineImage } from '../messages/image-lightbox.tsx';

/** Switches the message box between the text and its rendering. */
export function PreviewToggle({ previewing }: { previewing: Signal<boolean> }) {
  return (
    <button type="button" class="compose-tool" aria-pressed={previewing.value} onClick={() => (previewing.value = !previewing.value)}>
      {previewing.value ? 'Edit' : 'Preview'}
    </button>
  );
}

type Rendering = { state: 'loading' } | { state: 'done'; html: string } | { state: 'failed'; msg: string };

/**
 * The message as it will look once sent: the server renders it (`POST /messages/render`), so
 * mentions, channel links, emoji and linkifiers come out exactly as in the sent message.
 */
export function ComposePreview({ content }: { content: string }) {
  const { session } = useChat();
  const rendering = useSignal<Rendering>({ state: 'loading' });

  useEffect(() => {
    if (!content.trim()) return;
    // A slower answer for older text must not replace the newer one.
    let current = true;
    rendering.value = { state: 'loading' };
    session.api.post<{ rendered: string }>('/messages/render', { content }).then(
      (answer) => current && (rendering.value = { state: 'done', html: messageHtml(answer.rendered, session.api.server) }),
      (error: unknown) => current && (rendering.value = { state: 'failed', msg: error instanceof ApiFailure || error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [content]);

  const shown = rendering.value;
  return (
    <div class="compose-preview" role="region" aria-label="Preview" aria-busy={content.trim() !== '' && shown.state === 'loading'} tabIndex={0}>
      {!content.trim() ? (
        <p class="hint">Nothing to preview.</p>
      ) : shown.state === 'done' ? (
        <div class="rendered" onClick={openInlineImage} dangerouslySetInnerHTML={{ __html: shown.html }} />
      ) : shown.state === 'failed' ? (
        <p class="form-error" role="alert">
          {shown.msg}
        </p>
      ) : (
        <p class="hint">Rendering…</p>
      )}
    </div>
  );
}
