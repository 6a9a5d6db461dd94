import type { Submessage } from '../api/wire-types.ts';

/**
 * A message's widget (`/poll`, `/todo`) as its submessages build it, replayed as upstream's web
 * app replays them: the first widget submessage describes it, each later one changes it.
 * Options and tasks are keyed by who added them (`canned` for the message's own), so two
 * people adding at once never clash.
 */

export interface PollOption {
  key: string;
  text: string;
  voterIds: number[];
}

export interface Poll {
  kind: 'poll';
  question: string;
  options: PollOption[];
  /** The index my next option takes (upstream's: mine start at 1, after any I added elsewhere). */
  nextIndex: number;
}

export interface TodoTask {
  key: string;
  task: string;
  desc: string;
  completed: boolean;
}

export interface TodoList {
  kind: 'todo';
  title: string;
  tasks: TodoTask[];
  nextIndex: number;
}

export type Widget = Poll | TodoList;

/** Upstream's bound on an option's or task's index. */
const MAX_INDEX = 1000;

const record = (value: unknown): Record<string, unknown> | null => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const index = (value: unknown): number | null => (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_INDEX ? (value as number) : null);

function parsed(submessage: Submessage): Record<string, unknown> | null {
  try {
    return record(JSON.parse(submessage.content));
  } catch {
    return null;
  }
}

/** Each message's widget, replayed once: a message object is replaced, never changed, when its submessages change. */
const replayed = new WeakMap<object, Widget | null>();

/** The message's widget, or null when it has none this app shows. Malformed changes are passed over, as upstream's app does. */
export function widgetOf(message: { sender_id: number; submessages?: readonly Submessage[] }, me: number): Widget | null {
  if (!message.submessages?.length) return null;
  if (replayed.has(message)) return replayed.get(message)!;
  const widget = replayWidget(message, me);
  replayed.set(message, widget);
  return widget;
}

function replayWidget(message: { sender_id: number; submessages?: readonly Submessage[] }, me: number): Widget | null {
  const changes = (message.submessages ?? []).filter((submessage) => submessage.msg_type === 'widget');
  const [first, ...rest] = changes;
  const description = first && first.sender_id === message.sender_id ? parsed(first) : null;
  const extra = record(description?.extra_data) ?? {};
  if (description?.widget_type === 'poll') return replayPoll(message.sender_id, me, extra, rest);
  if (description?.widget_type === 'todo') return replayTodo(message.sender_id, me, extra, rest);
  return null;
}

function replayPoll(author: number, me: number, extra: Record<string, unknown>, changes: readonly Submessage[]): Poll {
  const poll: Poll = { kind: 'poll', question: text(extra.question) ?? '', options: [], nextIndex: 1 };
  const votes = new Map<string, Set<number>>();
  const addOption = (sender: number | 'canned', at: number, option: string): void => {
    // Duplicates (which `/poll` lines may hold) are shown once, as upstream.
    if (poll.options.some((known) => known.text === option)) return;
    const key = `${sender},${at}`;
    poll.options.push({ key, text: option, voterIds: [] });
    votes.set(key, new Set());
    if (sender === me) poll.nextIndex = Math.max(poll.nextIndex, at + 1);
  };
  (Array.isArray(extra.options) ? extra.options : []).forEach((option, at) => typeof option === 'string' && addOption('canned', at, option));
  for (const change of changes) {
    const data = parsed(change);
    if (data?.type === 'new_option' && index(data.idx) !== null && text(data.option) !== null) addOption(change.sender_id, data.idx as number, data.option as string);
    else if (data?.type === 'question' && change.sender_id === author && text(data.question) !== null) poll.question = data.question as string;
    else if (data?.type === 'vote' && typeof data.key === 'string' && (data.vote === 1 || data.vote === -1)) {
      const voters = votes.get(data.key);
      if (data.vote === 1) voters?.add(change.sender_id);
      else voters?.delete(change.sender_id);
    }
  }
  for (const option of poll.options) option.voterIds = [...votes.get(option.key)!];
  return poll;
}

function replayTodo(author: number, me: number, extra: Record<string, unknown>, changes: readonly Submessage[]): TodoList {
  const list: TodoList = { kind: 'todo', title: text(extra.task_list_title) || 'Task list', tasks: [], nextIndex: 1 };
  const addTask = (sender: number | 'canned', at: number, task: string, desc: string, completed: boolean): void => {
    if (!list.tasks.some((known) => known.task === task)) list.tasks.push({ key: `${at},${sender}`, task, desc, completed });
    if (sender === me) list.nextIndex = Math.max(list.nextIndex, at + 1);
  };
  (Array.isArray(extra.tasks) ? extra.tasks : []).forEach((item, at) => {
    const task = record(item);
    if (task && text(task.task) !== null) addTask('canned', at, task.task as string, text(task.desc) ?? '', false);
  });
  for (const change of changes) {
    const data = parsed(change);
    if (data?.type === 'new_task' && index(data.key) !== null && text(data.task) !== null && text(data.desc) !== null && typeof data.completed === 'boolean') {
      addTask(change.sender_id, data.key as number, data.task as string, data.desc as string, data.completed);
    } else if (data?.type === 'strike' && typeof data.key === 'string') {
      const task = list.tasks.find((known) => known.key === data.key);
      if (task) task.completed = !task.completed;
    } else if (data?.type === 'new_task_list_title' && change.sender_id === author && text(data.title)) {
      list.title = data.title as string;
    }
  }
  return list;
}

/** What a click on an option sends: my vote, or taking it back. */
export function voteData(poll: Poll, key: string, me: number): Record<string, unknown> {
  const mine = poll.options.find((option) => option.key === key)?.voterIds.includes(me) ?? false;
  return { type: 'vote', key, vote: mine ? -1 : 1 };
}

export const newOptionData = (poll: Poll, option: string) => ({ type: 'new_option', idx: poll.nextIndex, option });
export const questionData = (question: string) => ({ type: 'question', question });
export const newTaskData = (list: TodoList, task: string, desc: string) => ({ type: 'new_task', key: list.nextIndex, task, desc, completed: false });
export const strikeData = (key: string) => ({ type: 'strike', key });
export const titleData = (title: string) => ({ type: 'new_task_list_title', title });
