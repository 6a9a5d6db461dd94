/**
 * The search syntax the search box offers, in upstream's wording (web/src/search_suggestion.ts),
 * limited to what the engine's narrows support (src/engine/narrow/narrow-parse.ts): no
 * `is:muted`, no `from:`, no `near:` (a search ignores it).
 */

/** A whole term and what it finds. */
export interface Filter {
  term: string;
  description: string;
}

/** Upstream's `is:` and `has:` operands, with what each finds. */
export const OPERANDS: Record<'is' | 'has', Filter[]> = {
  is: [
    { term: 'is:dm', description: 'Direct messages' },
    { term: 'is:starred', description: 'Starred messages' },
    { term: 'is:mentioned', description: '@-mentions' },
    { term: 'is:followed', description: 'Followed topics' },
    { term: 'is:alerted', description: 'Alerted messages' },
    { term: 'is:unread', description: 'Unread messages' },
    { term: 'is:resolved', description: 'Resolved topics' },
  ],
  has: [
    { term: 'has:link', description: 'Messages with links' },
    { term: 'has:image', description: 'Messages with images' },
    { term: 'has:attachment', description: 'Messages with attachments' },
    { term: 'has:reaction', description: 'Messages with reactions' },
  ],
};

/**
 * What an empty box offers to start from, in upstream's order: its special filters, then "Sent
 * by me" (upstream's `sender:` with my email, since `sender:me` is no operand the API takes).
 */
export function starters(myEmail: string): Filter[] {
  return [
    { term: 'channels:public', description: 'All public channels' },
    ...OPERANDS.is,
    { term: '-is:resolved', description: 'Unresolved topics' },
    { term: `sender:${myEmail}`, description: 'Sent by me' },
    ...OPERANDS.has,
  ];
}

/** Operators a word completes to (`cha` -> `channel:`), as upstream's operator suggestions. */
export const OPERATORS: Filter[] = [
  { term: 'channel:', description: 'Channel' },
  { term: 'topic:', description: 'Topic' },
  { term: 'dm:', description: 'Direct messages with' },
  { term: 'dm-including:', description: 'Direct messages including' },
  { term: 'sender:', description: 'Sent by' },
];
