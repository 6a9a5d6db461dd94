import { describe, expect, it } from 'vitest';
import { compileLinkifier, LinkifierError, topicLinks } from '../../src/engine/markdown/linkifiers.ts';

const ticket = { id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' };

describe('compiling a linkifier', () => {
  it('accepts a Python-syntax pattern whose named groups fill the template', () => {
    const linkifier = compileLinkifier(ticket);
    expect(linkifier.matches('fixes #42')).toEqual([
      { start: 6, end: 9, text: '#42', url: 'https://trac.example.com/ticket/42' },
    ]);
  });

  it('expands every RFC 6570 variable form it uses', () => {
    const linkifier = compileLinkifier({
      id: 2,
      pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)!(?P<pr>\\d+)',
      url_template: 'https://git.example/{org}/{repo}/pull/{pr}{?org}',
    });
    expect(linkifier.matches('see zulip/zulip!123')[0].url).toBe('https://git.example/zulip/zulip/pull/123?org=zulip');
  });

  it('refuses a pattern that is not a valid regex', () => {
    expect(() => compileLinkifier({ id: 3, pattern: '(abc', url_template: 'https://x.example/' })).toThrow(LinkifierError);
    expect(() => compileLinkifier({ id: 3, pattern: '(abc', url_template: 'https://x.example/' })).toThrow(
      /^Bad regular expression: .*missing closing \)/,
    );
  });

  it('refuses backreferences and lookaround, which cannot run in linear time', () => {
    expect(() => compileLinkifier({ id: 4, pattern: '(?P<a>x)(?P=a)', url_template: 'https://x.example/{a}' })).toThrow(
      LinkifierError,
    );
    expect(() => compileLinkifier({ id: 5, pattern: 'a(?=b)', url_template: 'https://x.example/' })).toThrow(LinkifierError);
  });

  it('refuses a template that is not a valid RFC 6570 template', () => {
    for (const url_template of ['https://x.example/{id', 'https://x.example/{}', 'https://x.example/{!id}', 'https://x.example/ {id}']) {
      expect(() => compileLinkifier({ ...ticket, url_template })).toThrow('Invalid URL template.');
    }
  });

  it('refuses a template variable that is not a named group of the pattern', () => {
    expect(() => compileLinkifier({ ...ticket, url_template: 'https://x.example/{ticket}' })).toThrow(
      "Group 'ticket' in URL template is not present in linkifier pattern.",
    );
  });

  it('finishes quickly on a catastrophic-backtracking pattern', () => {
    const linkifier = compileLinkifier({ id: 6, pattern: '(?P<run>(a+)+$)', url_template: 'https://x.example/{run}' });
    const hostile = `${'a'.repeat(100_000)}!`;
    expect(linkifier.matches(hostile)).toEqual([]);
    expect(linkifier.matches('aaaa')[0].url).toBe('https://x.example/aaaa');
  });

  it('returns the same compiled engine for the same pattern and template', () => {
    const first = compileLinkifier(ticket);
    const second = compileLinkifier({ ...ticket, id: 99 });
    expect(second.id).toBe(99);
    expect(second.matches('#7')).toEqual(first.matches('#7'));
  });
});

describe('matching in text', () => {
  it('needs the match to stand apart from surrounding words', () => {
    const linkifier = compileLinkifier(ticket);
    expect(linkifier.matches('x#1 #2a (#3) "#4", #5').map((match) => match.text)).toEqual(['#3', '#4', '#5']);
  });

  it('lets two matches share the space between them', () => {
    expect(compileLinkifier(ticket).matches('#1 #2').map((match) => match.text)).toEqual(['#1', '#2']);
  });
});

describe('topic links', () => {
  it('lists linkifier matches and bare URLs in reading order', () => {
    expect(topicLinks('fix #12, see https://example.com/a. and www.zulip.org', [ticket])).toEqual([
      { text: '#12', url: 'https://trac.example.com/ticket/12' },
      { text: 'https://example.com/a', url: 'https://example.com/a' },
      { text: 'www.zulip.org', url: 'https://www.zulip.org' },
    ]);
  });

  it('lets the earlier linkifier win where two match at the same place', () => {
    const other = { id: 2, pattern: '#(?P<n>[0-9]+)', url_template: 'https://other.example/{n}' };
    expect(topicLinks('#5', [other, ticket])).toEqual([{ text: '#5', url: 'https://other.example/5' }]);
  });

  it('ignores linkifiers that do not compile', () => {
    expect(topicLinks('#5', [{ id: 3, pattern: '(', url_template: 'https://x.example/' }])).toEqual([]);
  });

  it('finds nothing in a plain topic', () => {
    expect(topicLinks('lunch plans', [ticket])).toEqual([]);
  });
});
