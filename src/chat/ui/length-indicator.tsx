import { messageTooLong } from '../state/message-length.ts';

/**
 * Near the realm's message length limit, how many characters are left; past it, by how much
 * the text is over, as upstream's compose box does instead of cutting a paste short.
 */
export function LengthIndicator({ id, left, max }: { id: string; left: number | null; max: number }) {
  if (left === null) return null;
  const over = left < 0;
  return (
    <p id={id} class={`length-indicator ${over ? 'over-limit' : ''}`} aria-live="polite" title={over ? messageTooLong(max) : undefined}>
      {over ? `${-left} ${-left === 1 ? 'character' : 'characters'} over the limit of ${max}` : `${left} ${left === 1 ? 'character' : 'characters'} left`}
    </p>
  );
}
