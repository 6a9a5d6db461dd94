import { describe, expect, test } from 'vitest';
import { decodeHashComponent, encodeHashComponent } from '../../src/chat/narrow/hash-encoding.ts';
import { narrowHash, parseNarrowHash } from '../../src/chat/narrow/narrow-url.ts';
import { marksReadWhenShown, parseSearch } from '../../src/chat/narrow/narrow.ts';

const names = {
  channelName: (id: number) => ({ 5: 'engineering', 7: 'beta feedback' })[id],
  userName: (id: number) => ({ 9: 'Marcus Reed', 15: 'Tomás Silva' })[id],
};

describe('hash components are encoded as upstream web app encodes them', () => {
  test('the runtime contract example round-trips', () => {
    expect(encodeHashComponent('v2.4 (beta)')).toBe('v2.2E4.20.28beta.29');
    expect(decodeHashComponent('v2.2E4.20.28beta.29')).toBe('v2.4 (beta)');
  });

  test('percent signs and non-ASCII characters survive the dot encoding', () => {
    for (const text of ['100% done', 'São Paulo', 'a.b/c?d#e', '日本語']) {
      expect(decodeHashComponent(encodeHashComponent(text))).toBe(text);
    }
    expect(encodeHashComponent('100%')).toBe('100.25');
  });
});

describe('narrow URLs', () => {
  test('a channel, a topic, a DM, is:starred, is:mentioned and a search each have upstream form', () => {
    expect(narrowHash({ kind: 'channel', channelId: 7 }, names)).toBe('#narrow/channel/7-beta-feedback');
    expect(narrowHash({ kind: 'channel', channelId: 5, topic: 'Release 2.4' }, names)).toBe('#narrow/channel/5-engineering/topic/Release.202.2E4');
    expect(narrowHash({ kind: 'dm', userIds: [9] }, names)).toBe('#narrow/dm/9-Marcus-Reed');
    expect(narrowHash({ kind: 'dm', userIds: [9, 15] }, names)).toBe('#narrow/dm/9,15-group');
    expect(narrowHash({ kind: 'starred' }, names)).toBe('#narrow/is/starred');
    expect(narrowHash({ kind: 'mentioned' }, names)).toBe('#narrow/is/mentioned');
    expect(narrowHash({ kind: 'search', query: 'sync bug' }, names)).toBe('#narrow/search/sync.20bug');
    expect(narrowHash({ kind: 'all' }, names)).toBe('');
  });

  test('a message link carries /near/{id}', () => {
    expect(narrowHash({ kind: 'channel', channelId: 5, topic: 'CI' }, names, 260)).toBe('#narrow/channel/5-engineering/topic/CI/near/260');
  });

  test('a channel, Starred and a search keep the message to open near too (the keys s and z go there)', () => {
    expect(narrowHash({ kind: 'channel', channelId: 5 }, names, 370)).toBe('#narrow/channel/5-engineering/near/370');
    expect(parseNarrowHash('#narrow/channel/5-engineering/near/370')).toEqual({ narrow: { kind: 'channel', channelId: 5, topic: undefined }, nearMessageId: 370 });
    expect(narrowHash({ kind: 'starred' }, names, 12)).toBe('#narrow/is/starred/near/12');
    expect(narrowHash({ kind: 'search', query: 'sync' }, names, 12)).toBe('#narrow/search/sync/near/12');
  });

  test('the id decides: a bare id, a stale slug and the legacy stream operator all parse', () => {
    expect(parseNarrowHash('#narrow/channel/5').narrow).toEqual({ kind: 'channel', channelId: 5, topic: undefined });
    expect(parseNarrowHash('#narrow/channel/5-old-name/topic/v2.2E4.20.28beta.29').narrow).toEqual({ kind: 'channel', channelId: 5, topic: 'v2.4 (beta)' });
    expect(parseNarrowHash('#narrow/stream/5-engineering').narrow).toEqual({ kind: 'channel', channelId: 5, topic: undefined });
    expect(parseNarrowHash('#narrow/dm/15,9-group').narrow).toEqual({ kind: 'dm', userIds: [9, 15] });
    expect(parseNarrowHash('#narrow/dm/9-Marcus-Reed/near/362')).toEqual({ narrow: { kind: 'dm', userIds: [9] }, nearMessageId: 362 });
    expect(parseNarrowHash('#narrow/search/sync.20bug').narrow).toEqual({ kind: 'search', query: 'sync bug' });
  });

  test('anything else is the combined feed', () => {
    for (const hash of ['', '#', '#settings', '#narrow/channel/abc', '#narrow/is/unknown', '#inbox/5']) {
      expect(parseNarrowHash(hash)).toEqual({ narrow: { kind: 'all' }, nearMessageId: undefined });
    }
  });

  test('other combinations of upstream operators become terms with ids, and write back in upstream form', () => {
    const cases: [string, unknown[], string][] = [
      ['#narrow/sender/9-Marcus-Reed', [{ operator: 'sender', operand: 9 }], '#narrow/sender/9-Marcus-Reed'],
      ['#narrow/is/dm', [{ operator: 'is', operand: 'dm' }], '#narrow/is/dm'],
      ['#narrow/channel/5-engineering/search/sync', [{ operator: 'channel', operand: 5 }, { operator: 'search', operand: 'sync' }], '#narrow/channel/5-engineering/search/sync'],
      ['#narrow/has/link/-is/starred', [{ operator: 'has', operand: 'link' }, { operator: 'is', operand: 'starred', negated: true }], '#narrow/has/link/-is/starred'],
      ['#narrow/stream/5-old/subject/a.20b/sender/9', [{ operator: 'channel', operand: 5 }, { operator: 'topic', operand: 'a b' }, { operator: 'sender', operand: 9 }], '#narrow/channel/5-engineering/topic/a.20b/sender/9-Marcus-Reed'],
      ['#narrow/dm-including/9', [{ operator: 'dm-including', operand: 9 }], '#narrow/dm-including/9-Marcus-Reed'],
      ['#narrow/sender/marcus.40lakeside.2Etest', [{ operator: 'sender', operand: 'marcus@lakeside.test' }], '#narrow/sender/marcus.40lakeside.2Etest'],
    ];
    for (const [hash, terms, written] of cases) {
      const parsed = parseNarrowHash(hash);
      expect(parsed.narrow).toEqual({ kind: 'terms', terms });
      expect(narrowHash(parsed.narrow, names)).toBe(written);
      expect(parseNarrowHash(written).narrow).toEqual({ kind: 'terms', terms });
    }
    expect(parseNarrowHash('#narrow/is/unread/near/40')).toEqual({ narrow: { kind: 'terms', terms: [{ operator: 'is', operand: 'unread' }] }, nearMessageId: 40 });
  });

  test('as upstream, whole-conversation views mark what they show read, and searches, a sender, Starred and Mentions do not', () => {
    const marks = (hash: string) => marksReadWhenShown(parseNarrowHash(hash).narrow);
    expect(['', '#narrow/channel/5', '#narrow/channel/5/topic/a', '#narrow/dm/9', '#narrow/is/dm', '#narrow/in/home'].map(marks)).toEqual([true, true, true, true, true, true]);
    expect(['#narrow/is/starred', '#narrow/is/mentioned', '#narrow/search/a', '#narrow/sender/9', '#narrow/is/dm/sender/9', '#narrow/-is/dm'].map(marks)).toEqual([false, false, false, false, false, false]);
  });

  test('a trailing slash is ignored; an unknown operator or operand, or a missing operand, is the combined feed', () => {
    expect(parseNarrowHash('#narrow/channel/5/').narrow).toEqual({ kind: 'channel', channelId: 5, topic: undefined });
    for (const hash of ['#narrow/frobnicate/5', '#narrow/has/nothing', '#narrow/sender/someone', '#narrow/channel', '#narrow/channel/5/topic']) {
      expect(parseNarrowHash(hash).narrow).toEqual({ kind: 'all' });
    }
  });

  test('the empty topic’s link, `topic/` with nothing after it, opens that topic', () => {
    const hash = narrowHash({ kind: 'channel', channelId: 5, topic: '' }, names);
    expect(hash).toBe('#narrow/channel/5-engineering/topic/');
    expect(parseNarrowHash(hash).narrow).toEqual({ kind: 'channel', channelId: 5, topic: '' });
  });

  test('#inbox and #recent (and the older #recent_topics) are the conversation views, not a narrow', () => {
    expect(parseNarrowHash('#inbox')).toEqual({ narrow: { kind: 'all' }, view: 'inbox' });
    expect(parseNarrowHash('#recent')).toEqual({ narrow: { kind: 'all' }, view: 'recent' });
    expect(parseNarrowHash('#recent_topics')).toEqual({ narrow: { kind: 'all' }, view: 'recent' });
  });
});

describe('the search box syntax', () => {
  test('operators become narrow terms and the other words one search term', () => {
    expect(parseSearch('channel:engineering topic:"Release 2.4" sender:sam@lakeside.test is:starred has:link sync bug')).toEqual([
      { operator: 'channel', operand: 'engineering', negated: false },
      { operator: 'topic', operand: 'Release 2.4', negated: false },
      { operator: 'sender', operand: 'sam@lakeside.test', negated: false },
      { operator: 'is', operand: 'starred', negated: false },
      { operator: 'has', operand: 'link', negated: false },
      { operator: 'search', operand: 'sync bug' },
    ]);
  });

  test('a leading minus negates, stream is channel, unknown operators are words', () => {
    expect(parseSearch('-is:starred stream:design foo:bar')).toEqual([
      { operator: 'is', operand: 'starred', negated: true },
      { operator: 'channel', operand: 'design', negated: false },
      { operator: 'search', operand: 'foo:bar' },
    ]);
  });
});
