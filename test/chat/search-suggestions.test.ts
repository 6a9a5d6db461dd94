import { describe, expect, test } from 'vitest';
import type { Channel, User } from '../../src/chat/api/wire-types.ts';
import { searchSuggestions } from '../../src/chat/ui/frame/search-suggestions.ts';

const users = [
  { user_id: 9, full_name: 'Marcus Reed', email: 'marcus@lakeside.test' },
  { user_id: 10, full_name: 'Maria Lopez', email: 'maria@lakeside.test' },
] as User[];
const channels = [
  { stream_id: 5, name: 'engineering' },
  { stream_id: 8, name: 'beta feedback' },
] as Channel[];
const suggest = searchSuggestions({ users: () => users, channels: () => channels });
const labels = (text: string) => suggest(text, text.length).map((suggestion) => suggestion.label);
const taken = (text: string, index = 0) => suggest(text, text.length)[index].apply();

describe('the search box’s suggestions', () => {
  test('offer the operand being typed: people by name or email, channels, is: and has: operands', () => {
    expect(labels('sender:mar')).toEqual(['Marcus Reed', 'Maria Lopez']);
    expect(labels('sync sender:marcus@')).toEqual(['Marcus Reed']);
    expect(labels('channel:feed')).toEqual(['#beta feedback']);
    expect(labels('is:st')).toEqual(['is:starred']);
    expect(labels('-has:li')).toEqual(['has:link']);
  });

  test('taking one completes the operand (quoted when it has spaces) and keeps what follows', () => {
    expect(taken('sender:marc')).toEqual({ text: 'sender:marcus@lakeside.test ', caret: 28 });
    expect(taken('channel:bet')).toEqual({ text: 'channel:"beta feedback" ', caret: 24 });
    const text = 'is:st sync';
    expect(suggest(text, 5)[0].apply()).toEqual({ text: 'is:starred sync', caret: 11 });
  });

  test('offer nothing for free words, an unknown operator, or an operand already complete (so Enter searches)', () => {
    for (const text of ['sync', 'sender', 'topic:rel', 'is:starred', 'sender:marcus@lakeside.test', 'channel:engineering', 'has:link']) {
      expect(labels(text)).toEqual([]);
    }
  });
});
