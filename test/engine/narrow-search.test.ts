import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { highlightWords } from '../../src/engine/narrow/search-highlight.ts';
import { parseSearchQuery } from '../../src/engine/narrow/search-query.ts';
import { createTestRealm, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
let ids: Record<string, number>;

beforeEach(async () => {
  realm = await createTestRealm();
  ids = {};
  const messages: Array<[string, string, string]> = [
    ['lunch', 'Lunch plans', 'Pizza at noon?'],
    ['salad', 'Lunch plans', 'I prefer a salad at noon'],
    ['quote', 'quotes', 'the quick brown fox'],
    ['scrambled', 'quotes', 'the brown quick fox'],
    ['markup', 'code', 'Use `<b>pizza</b>` & enjoy'],
  ];
  for (const [key, topic, content] of messages) {
    const { body } = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic, content });
    ids[key] = body.id;
  }
});
afterEach(() => realm.engine.close());

async function search(narrow: unknown): Promise<Array<Record<string, any>>> {
  const { status, body } = await realm.as('mia').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
  expect(status).toBe(200);
  return body.messages;
}

const searchFor = (operand: string, negated?: boolean) => [{ operator: 'search', operand, ...(negated ? { negated } : {}) }];

describe('search narrows', () => {
  it('matches a word in the content or the topic, case-insensitively', async () => {
    expect((await search(searchFor('PIZZA'))).map((m) => m.id)).toEqual([ids.lunch, ids.markup]);
    expect((await search(searchFor('lunch'))).map((m) => m.id)).toEqual([ids.lunch, ids.salad]);
  });

  it('requires every word to match', async () => {
    expect((await search(searchFor('noon salad'))).map((m) => m.id)).toEqual([ids.salad]);
    expect((await search(searchFor('noon missingword'))).map((m) => m.id)).toEqual([]);
  });

  it('requires a quoted phrase to appear as written', async () => {
    expect((await search(searchFor('"quick brown"'))).map((m) => m.id)).toEqual([ids.quote]);
    expect((await search(searchFor('quick brown'))).map((m) => m.id)).toEqual([ids.quote, ids.scrambled]);
  });

  it('joins several search terms into one search', async () => {
    const narrow = [...searchFor('noon'), ...searchFor('salad')];
    expect((await search(narrow)).map((m) => m.id)).toEqual([ids.salad]);
  });

  it('excludes matches with a negated search', async () => {
    const narrow = [{ operator: 'topic', operand: 'lunch plans' }, ...searchFor('salad', true)];
    expect((await search(narrow)).map((m) => m.id)).toEqual([ids.lunch]);
  });

  it('adds highlighted match_content and match_subject to search results', async () => {
    const [message] = await search(searchFor('lunch pizza'));
    expect(message.id).toBe(ids.lunch);
    expect(message.match_content).toBe('<p><span class="highlight">Pizza</span> at noon?</p>');
    expect(message.match_subject).toBe('<span class="highlight">Lunch</span> plans');
  });

  it('adds no match fields without a search term', async () => {
    const [message] = await search([{ operator: 'topic', operand: 'code' }]);
    expect(message).not.toHaveProperty('match_content');
    expect(message).not.toHaveProperty('match_subject');
  });

  it('combines search with channel terms and pages through results', async () => {
    const narrow = [{ operator: 'channel', operand: 'general' }, ...searchFor('noon')];
    const { body } = await realm.as('mia').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow });
    expect(body.messages.map((m: { id: number }) => m.id)).toEqual([ids.salad]);
    expect(body).toMatchObject({ found_oldest: false, found_newest: true });
  });
});

describe('search highlighting', () => {
  it('never highlights inside tags or character references', () => {
    const html = '<p><a href="https://pizza.example">pizza</a> &amp; amp</p>';
    expect(highlightWords(html, new Set(['pizza', 'amp']))).toBe(
      '<p><a href="https://pizza.example"><span class="highlight">pizza</span></a> &amp; <span class="highlight">amp</span></p>',
    );
  });

  it('reads quoted phrases and their words from a search operand', () => {
    expect(parseSearchQuery('Fox "Quick Brown" jumps')).toEqual({ words: ['fox', 'quick', 'brown', 'jumps'], phrases: ['quick brown'] });
  });
});
