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
const topics = new Map([[5, ['release notes', 'CI', 'Dark mode']]]);
const suggest = searchSuggestions({
  users: () => users,
  channels: () => channels,
  myEmail: () => 'olivia@lakeside.test',
  topics: (channel) => topics.get(channel.stream_id),
});
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

  test('offer nothing for an unknown operator, an operand already complete or a finished term (so Enter searches)', () => {
    for (const text of ['id:12', 'topic:rel', 'is:starred', 'sender:marcus@lakeside.test', 'channel:engineering', 'has:link', 'sync ', 'sender:marcus@lakeside.test ']) {
      expect(labels(text)).toEqual([]);
    }
  });

  test('offer upstream’s filters to start from in an empty box, in its words', () => {
    const offered = suggest('', 0).map(({ label, detail }) => [label, detail]);
    expect(offered).toEqual([
      ['channels:public', 'All public channels'],
      ['is:dm', 'Direct messages'],
      ['is:starred', 'Starred messages'],
      ['is:mentioned', '@-mentions'],
      ['is:followed', 'Followed topics'],
      ['is:alerted', 'Alerted messages'],
      ['is:unread', 'Unread messages'],
      ['is:resolved', 'Resolved topics'],
      ['-is:resolved', 'Unresolved topics'],
      ['sender:olivia@lakeside.test', 'Sent by me'],
      ['has:link', 'Messages with links'],
      ['has:image', 'Messages with images'],
      ['has:attachment', 'Messages with attachments'],
      ['has:reaction', 'Messages with reactions'],
    ]);
    expect(suggest('  ', 2)[2].apply()).toEqual({ text: 'is:starred ', caret: 11 });
    // Each is a whole search: taken, it searches at once.
    expect(suggest('', 0).every((suggestion) => suggestion.searches)).toBe(true);
  });

  test('a word offers the plain search for the whole text first, which searches, then what the word starts', () => {
    const [plain, ...rest] = suggest('sync cha', 8);
    expect([plain.label, plain.searches]).toEqual(['sync cha', true]);
    expect(plain.apply()).toEqual({ text: 'sync cha', caret: 8 });
    expect(rest.map((suggestion) => suggestion.label)).toEqual(['channel:', 'channels:public']);
    // An operator is left open for its operand (no space), which is offered next.
    expect(rest[0].apply()).toEqual({ text: 'sync channel:', caret: 13 });
    expect(labels('sync channel:')).toEqual(['#engineering', '#beta feedback']);
    expect(labels('tacos')).toEqual(['tacos']);
  });

  test('a word finds filters by their term or words, channels and people by a word of their name', () => {
    expect(labels('star')).toEqual(['star', 'is:starred']);
    expect(labels('att')).toEqual(['att', 'has:attachment']);
    expect(labels('-unr')).toEqual(['-unr', '-is:unread']);
    expect(suggest('-res', 4).map(({ label, detail }) => [label, detail])).toContainEqual(['-is:resolved', 'Unresolved topics']);
    expect(labels('feed')).toEqual(['feed', 'channel:"beta feedback"']);
    expect(labels('reed')).toEqual(['reed', 'dm:marcus@lakeside.test', 'sender:marcus@lakeside.test']);
    expect(taken('is:dm feed', 1)).toEqual({ text: 'is:dm channel:"beta feedback" ', caret: 30 });
  });

  test('topic: after channel:X offers that channel’s topics, once they are known', () => {
    expect(labels('channel:engineering topic:')).toEqual(['release notes', 'CI', 'Dark mode']);
    expect(labels('channel:engineering topic:da')).toEqual(['Dark mode']);
    expect(taken('channel:engineering topic:rel')).toEqual({ text: 'channel:engineering topic:"release notes" ', caret: 42 });
    expect(labels('channel:"beta feedback" topic:')).toEqual([]);
    expect(labels('topic:')).toEqual([]);
  });
});
