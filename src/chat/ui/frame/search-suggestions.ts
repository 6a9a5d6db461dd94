import type { Channel, User } from '../../api/wire-types.ts';
import type { SuggestionSource } from '../compose/typeahead.tsx';

/** Upstream's `is:` and `has:` operands, with what each finds. */
const OPERANDS: Record<'is' | 'has', [string, string][]> = {
  is: [
    ['starred', 'Starred messages'],
    ['mentioned', 'Messages that mention you'],
    ['unread', 'Unread messages'],
    ['dm', 'Direct messages'],
    ['resolved', 'Resolved topics'],
    ['followed', 'Followed topics'],
    ['alerted', 'Messages with your alert words'],
  ],
  has: [
    ['link', 'Messages with links'],
    ['image', 'Messages with images'],
    ['attachment', 'Messages with attachments'],
    ['reaction', 'Messages with reactions'],
  ],
};

/**
 * The search box's suggestions, as upstream's: the operand of the operator being typed
 * (`sender:mar` -> Marcus's email, `channel:eng`, `is:st`, `has:li`). Nothing for free words,
 * nor once the operand is complete, so Enter then searches.
 */
export function searchSuggestions(sources: { users(): User[]; channels(): Channel[] }): SuggestionSource {
  return (text, caret) => {
    const token = /(?:^|\s)(-?)(sender|channel|stream|is|has|dm|dm-including):(\S*)$/.exec(text.slice(0, caret));
    if (!token) return [];
    const [, , operator, typed] = token;
    const query = typed.toLowerCase();
    const start = caret - typed.length;
    let candidates: { operand: string; label: string; detail?: string }[];
    if (operator === 'is' || operator === 'has') {
      candidates = OPERANDS[operator].filter(([operand]) => operand.startsWith(query)).map(([operand, detail]) => ({ operand, label: `${operator}:${operand}`, detail }));
    } else if (operator === 'channel' || operator === 'stream') {
      candidates = sources
        .channels()
        .filter((channel) => channel.name.toLowerCase().includes(query))
        .map((channel) => ({ operand: channel.name, label: `#${channel.name}` }));
    } else {
      candidates = sources
        .users()
        .filter((user) => user.full_name.toLowerCase().includes(query) || user.email.toLowerCase().startsWith(query))
        .map((user) => ({ operand: user.email, label: user.full_name, detail: user.email }));
    }
    // A complete operand offers nothing: Enter searches.
    if (candidates.some((candidate) => candidate.operand.toLowerCase() === query)) return [];
    return candidates.map(({ operand, label, detail }) => ({
      key: operand,
      label,
      detail,
      apply: () => {
        const head = `${text.slice(0, start)}${/\s/.test(operand) ? `"${operand}"` : operand} `;
        return { text: `${head}${text.slice(caret).trimStart()}`, caret: head.length };
      },
    }));
  };
}
