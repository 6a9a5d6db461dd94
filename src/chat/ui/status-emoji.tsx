import type { UserStatus } from '../state/realm-state.ts';
import { emojiCharacter } from './emoji.ts';

/** A status's emoji (a custom one by its name), and with `withText` its words, as upstream shows them beside a name. */
export function StatusEmoji({ status, withText = false }: { status: UserStatus | undefined; withText?: boolean }) {
  if (!status) return null;
  const emoji = status.emojiName ? (status.reactionType === 'unicode_emoji' && status.emojiCode ? emojiCharacter(status.emojiCode) : `:${status.emojiName}:`) : '';
  return (
    <span class="user-status" title={status.text || undefined}>
      {emoji && <span aria-hidden={withText && status.text ? 'true' : undefined}>{emoji}</span>}
      {withText && status.text && <span class="user-status-text">{status.text}</span>}
      {!withText && status.text && <span class="visually-hidden">{status.text}</span>}
    </span>
  );
}
