import { describe, expect, it } from 'vitest';
import type { Submessage } from '../../src/chat/api/wire-types.ts';
import { newOptionData, newTaskData, voteData, widgetOf, type Poll, type TodoList } from '../../src/chat/state/widgets.ts';

const AUTHOR = 9;
const ME = 8;
const OTHER = 12;
let nextId = 1;
const change = (sender: number, data: unknown): Submessage => ({ id: nextId++, message_id: 50, sender_id: sender, msg_type: 'widget', content: typeof data === 'string' ? data : JSON.stringify(data) });
const message = (...submessages: Submessage[]) => ({ sender_id: AUTHOR, submessages });
const poll = (...changes: Submessage[]) =>
  widgetOf(message(change(AUTHOR, { widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza', 'Sushi', 'Pizza'] } }), ...changes), ME) as Poll;
const todo = (...changes: Submessage[]) =>
  widgetOf(message(change(AUTHOR, { widget_type: 'todo', extra_data: { task_list_title: '', tasks: [{ task: 'Ship', desc: 'Friday' }] } }), ...changes), ME) as TodoList;

describe('a poll replayed from its submessages', () => {
  it('starts from the message’s question and options, each shown once', () => {
    expect(poll()).toEqual({
      kind: 'poll',
      question: 'Lunch?',
      options: [
        { key: 'canned,0', text: 'Pizza', voterIds: [] },
        { key: 'canned,1', text: 'Sushi', voterIds: [] },
      ],
      nextIndex: 1,
    });
  });

  it('counts votes and votes taken back, takes options from anyone and the question from its author only', () => {
    const replayed = poll(
      change(ME, { type: 'vote', key: 'canned,1', vote: 1 }),
      change(OTHER, { type: 'vote', key: 'canned,1', vote: 1 }),
      change(OTHER, { type: 'vote', key: 'canned,1', vote: -1 }),
      change(ME, { type: 'new_option', idx: 3, option: 'Noodles' }),
      change(OTHER, { type: 'vote', key: `${ME},3`, vote: 1 }),
      change(OTHER, { type: 'question', question: 'Hijacked?' }),
      change(AUTHOR, { type: 'question', question: 'Dinner?' }),
      change(OTHER, { type: 'vote', key: 'no,such', vote: 1 }),
      change(OTHER, 'not json'),
    );
    expect(replayed.question).toBe('Dinner?');
    expect(replayed.options.map((option) => [option.key, option.voterIds])).toEqual([
      ['canned,0', []],
      ['canned,1', [ME]],
      [`${ME},3`, [OTHER]],
    ]);
    expect(replayed.nextIndex).toBe(4);
    expect(newOptionData(replayed, 'Tacos')).toEqual({ type: 'new_option', idx: 4, option: 'Tacos' });
    expect(voteData(replayed, 'canned,1', ME)).toEqual({ type: 'vote', key: 'canned,1', vote: -1 });
    expect(voteData(replayed, 'canned,0', ME)).toEqual({ type: 'vote', key: 'canned,0', vote: 1 });
  });
});

describe('a to-do list replayed from its submessages', () => {
  it('names an untitled list “Task list”, adds tasks once each by name, and strikes them on and off', () => {
    const replayed = todo(
      change(OTHER, { type: 'new_task', key: 2, task: 'Test', desc: '', completed: false }),
      change(ME, { type: 'new_task', key: 1, task: 'Ship', desc: 'again', completed: false }),
      change(ME, { type: 'strike', key: '0,canned' }),
      change(OTHER, { type: 'strike', key: `2,${OTHER}` }),
      change(ME, { type: 'strike', key: `2,${OTHER}` }),
      change(OTHER, { type: 'new_task_list_title', title: 'Not theirs' }),
    );
    expect(replayed.title).toBe('Task list');
    expect(replayed.tasks).toEqual([
      { key: '0,canned', task: 'Ship', desc: 'Friday', completed: true },
      { key: `2,${OTHER}`, task: 'Test', desc: '', completed: false },
    ]);
    expect(replayed.nextIndex).toBe(2);
    expect(newTaskData(replayed, 'Party', '')).toEqual({ type: 'new_task', key: 2, task: 'Party', desc: '', completed: false });
  });

  it('is no widget when the first submessage is not its sender’s or not a widget this app knows', () => {
    expect(widgetOf(message(change(OTHER, { widget_type: 'poll', extra_data: {} })), ME)).toBeNull();
    expect(widgetOf(message(change(AUTHOR, { widget_type: 'zform', extra_data: {} })), ME)).toBeNull();
    expect(widgetOf({ sender_id: AUTHOR }, ME)).toBeNull();
  });
});
