import { describe, expect, test } from 'vitest';
import type { User } from '../../src/chat/api/wire-types.ts';
import { findRecipient, joinRecipients, pillsFromTyped, recipientEntries, resolveRecipients } from '../../src/chat/state/recipients.ts';
import { recipientSuggestions } from '../../src/chat/ui/compose/suggestion-sources.ts';

const person = (user_id: number, full_name: string, email: string, is_active = true) => ({ user_id, full_name, email, is_active }) as User;
const USERS = [person(10, 'Hannah Kim', 'hannah@lakeside.test'), person(11, 'Sam Okafor', 'sam@lakeside.test'), person(12, 'Gone Away', 'gone@lakeside.test', false)];
const find = (entry: string) => findRecipient(entry, USERS);

describe('the To field’s pills and typed text', () => {
  test('an entry finished by a comma becomes its person’s pill, by email, whether typed as a name or an email', () => {
    expect(pillsFromTyped([], 'hannah kim, sa', find)).toEqual({ pills: ['hannah@lakeside.test'], typed: 'sa' });
    expect(pillsFromTyped(['hannah@lakeside.test'], 'SAM@lakeside.test,', find)).toEqual({ pills: ['hannah@lakeside.test', 'sam@lakeside.test'], typed: '' });
  });

  test('text with no comma stays typed as it is; Enter (whole) makes it a pill too', () => {
    expect(pillsFromTyped([], ' hannah@lakeside.test', find)).toEqual({ pills: [], typed: ' hannah@lakeside.test' });
    expect(pillsFromTyped([], 'hannah@lakeside.test', find, true)).toEqual({ pills: ['hannah@lakeside.test'], typed: '' });
  });

  test('an entry naming no one (or someone deactivated) stays typed; someone with a pill already gets no second one', () => {
    expect(pillsFromTyped([], 'nobody@nowhere.test', find, true)).toEqual({ pills: [], typed: 'nobody@nowhere.test' });
    expect(pillsFromTyped([], 'nobody, gone@lakeside.test, hannah@lakeside.test, sa', find)).toEqual({ pills: ['hannah@lakeside.test'], typed: 'nobody, gone@lakeside.test, sa' });
    expect(pillsFromTyped(['hannah@lakeside.test'], 'Hannah Kim, ', find)).toEqual({ pills: ['hannah@lakeside.test'], typed: '' });
  });

  test('`to` is the pills then the typed text, which counts when sending', () => {
    const to = joinRecipients(['hannah@lakeside.test'], ' sam@lakeside.test ');
    expect(to).toBe('hannah@lakeside.test, sam@lakeside.test');
    expect(recipientEntries(to)).toEqual(['hannah@lakeside.test', 'sam@lakeside.test']);
    expect(resolveRecipients(to, USERS)).toEqual({ ids: [10, 11], unknown: [] });
    expect(joinRecipients([], '  ')).toBe('');
    expect(resolveRecipients('hannah@lakeside.test, gone@lakeside.test', USERS)).toEqual({ ids: [10], unknown: ['gone@lakeside.test'] });
  });

  test('suggestions leave out the people with a pill; taking one ends its entry with a comma, which makes the pill', () => {
    const suggest = recipientSuggestions(() => USERS.filter((user) => user.is_active), () => ['hannah@lakeside.test']);
    expect(suggest('han', 3)).toEqual([]);
    expect(suggest('s', 1).map((s) => s.label)).toEqual(['Sam Okafor']);
    const [sam] = suggest('oka', 3);
    const { text } = sam.apply();
    expect(text).toBe('sam@lakeside.test, ');
    expect(pillsFromTyped(['hannah@lakeside.test'], text, find)).toEqual({ pills: ['hannah@lakeside.test', 'sam@lakeside.test'], typed: '' });
  });
});
