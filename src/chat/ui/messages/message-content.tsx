import { signal } from '@preact/signals';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Message } from '../../api/wire-types.ts';
import { useChat } from '../chat-context.ts';
import { messageHtml } from '../message-html.ts';
import { openInlineImage } from './image-lightbox.tsx';

/** Content taller than this is shown condensed, with Show more (upstream condenses long messages too). */
const CONDENSE_ABOVE_PX = 400;

/** The long messages opened with Show more: kept outside the rows, which the list unmounts as it scrolls. */
const expanded = signal<ReadonlySet<number>>(new Set());

/** A message's rendered content; a long one condensed until opened. */
export function MessageContent({ message, hidden }: { message: Message; hidden: boolean }) {
  const { session } = useChat();
  const content = useRef<HTMLDivElement>(null);
  const [tall, setTall] = useState(false);
  const html = messageHtml(message.is_me_message ? meMessageHtml(message) : (message.match_content ?? message.content), session.api.server);
  // The full height, condensed or not (scrollHeight counts what is cut off); again once an image in it loads.
  const measure = () => setTall(!hidden && (content.current?.scrollHeight ?? 0) > CONDENSE_ABOVE_PX);
  useLayoutEffect(measure, [html, hidden]);
  const open = expanded.value.has(message.id);
  const toggle = () => {
    const next = new Set(expanded.value);
    if (open) next.delete(message.id);
    else next.add(message.id);
    expanded.value = next;
  };
  return (
    <>
      <div
        ref={content}
        class={`message-content rendered ${message.is_me_message ? 'me-message' : ''} ${tall && !open ? 'condensed' : ''}`}
        hidden={hidden}
        onClick={openInlineImage}
        onLoadCapture={measure}
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {tall && (
        <button type="button" class="condense-toggle" aria-expanded={open} onClick={toggle}>
          {open ? 'Show less' : 'Show more'}
        </button>
      )}
    </>
  );
}

/**
 * A `/me` message as upstream's web app shows it: the sender's name, then what they did
 * ("Hannah Kim does a little dance"), instead of the `/me` the server leaves in its HTML.
 */
function meMessageHtml(message: Message): string {
  const html = message.match_content ?? message.content;
  const name = message.sender_full_name.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
  return html.replace(/^<p>\/me /, `<p><span class="me-sender">${name}</span> `);
}
