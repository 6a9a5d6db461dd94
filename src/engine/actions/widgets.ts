/**
 * Upstream's message widgets (`/poll`, `/todo`): a message whose content starts with the
 * command gets a first submessage describing the widget, and readers then change it with
 * submessages whose data each widget type checks (upstream's `zerver/lib/widget.py` and
 * `validate_poll_data` / `validate_todo_data`).
 */
import { badRequest } from '../errors/api-error.ts';

export type WidgetType = 'poll' | 'todo';

export interface WidgetContent {
  widget_type: WidgetType;
  extra_data: { question: string; options: string[] } | { task_list_title: string; tasks: { task: string; desc: string }[] };
}

/** Upstream's bound on an option's or task's index in a widget: its clients use the same. */
export const MAX_WIDGET_INDEX = 1000;

/** A list item's marker, as upstream drops it from an option or a task line. */
const LIST_MARKER = /^\s*[-*]?\s*/;

/** The widget a message's content starts, or null: `/poll Question` or `/todo Title`, then one option or task per line. */
export function widgetOf(content: string): WidgetContent | null {
  const command = /^\/(\S+)/.exec(content)?.[1];
  if (command !== 'poll' && command !== 'todo') return null;
  const lines = content.slice(command.length + 1).split(/\r\n|\r|\n/);
  // The command's own line gives the question or title; an empty one is not an item either.
  const heading = lines.shift()!.trim();
  const items = lines.map((line) => line.trim().replace(LIST_MARKER, '')).filter((item) => item.length > 0);
  if (command === 'poll') return { widget_type: 'poll', extra_data: { question: heading, options: items } };
  const tasks = items.map((item) => {
    const colon = item.indexOf(': ');
    return colon < 0 ? { task: item.trim(), desc: '' } : { task: item.slice(0, colon).trim(), desc: item.slice(colon + 2).trim() };
  });
  return { widget_type: 'todo', extra_data: { task_list_title: heading, tasks } };
}

/** The widget type a message's submessages start with, if its first is a widget's. */
export function widgetTypeOf(submessages: readonly { msg_type: string; content: string }[] | undefined): string | null {
  const first = submessages?.find((submessage) => submessage.msg_type === 'widget');
  if (!first) return null;
  try {
    const type = (JSON.parse(first.content) as { widget_type?: unknown } | null)?.widget_type;
    return typeof type === 'string' ? type : null;
  } catch {
    return null;
  }
}

type Check = (name: string, value: unknown) => void;
const isString: Check = (name, value) => {
  if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
};
const isBool: Check = (name, value) => {
  if (typeof value !== 'boolean') throw badRequest(`${name} is not a boolean`);
};
const isIndex: Check = (name, value) => {
  if (!Number.isInteger(value)) throw badRequest(`${name} is not an integer`);
  if ((value as number) < 0 || (value as number) > MAX_WIDGET_INDEX) throw badRequest(`${name} is not in the right range`);
};
const isVote: Check = (name, value) => {
  if (value !== 1 && value !== -1) throw badRequest(`Invalid ${name}`);
};

/** Exactly these keys, each of its kind (upstream's `check_dict_only`). */
function checkOnly(what: string, data: Record<string, unknown>, checks: Record<string, Check>): void {
  for (const [key, check] of Object.entries(checks)) {
    if (!(key in data)) throw badRequest(`${what} key is missing: ${key}`);
    check(`${what}["${key}"]`, data[key]);
  }
  const unexpected = Object.keys(data).filter((key) => !(key in checks));
  if (unexpected.length > 0) throw badRequest(`Unexpected arguments: ${unexpected.join(', ')}`);
}

/**
 * Checks a submessage's data for the widget it changes; `isAuthor` is whether its sender sent the
 * widget's message (only they may change a poll's question or a list's title).
 */
export function checkWidgetData(widgetType: string | null, data: unknown, isAuthor: boolean): void {
  if (widgetType !== 'poll' && widgetType !== 'todo') return;
  const what = `${widgetType} data`;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw badRequest(`${what} is not a dict`);
  const fields = data as Record<string, unknown>;
  if (!('type' in fields)) throw badRequest(`${what} key is missing: type`);
  isString(`${what}["type"]`, fields.type);
  const kind = fields.type as string;
  if (widgetType === 'poll') {
    if (kind === 'vote') return checkOnly(what, fields, { type: isString, key: isString, vote: isVote });
    if (kind === 'question') {
      if (!isAuthor) throw badRequest("You can't edit a question unless you are the author.");
      return checkOnly(what, fields, { type: isString, question: isString });
    }
    if (kind === 'new_option') return checkOnly(what, fields, { type: isString, option: isString, idx: isIndex });
    throw badRequest(`Unknown type for poll data: ${kind}`);
  }
  if (kind === 'new_task') return checkOnly(what, fields, { type: isString, key: isIndex, task: isString, desc: isString, completed: isBool });
  if (kind === 'strike') return checkOnly(what, fields, { type: isString, key: isString });
  if (kind === 'new_task_list_title') {
    if (!isAuthor) throw badRequest("You can't edit the task list title unless you are the author.");
    return checkOnly(what, fields, { type: isString, title: isString });
  }
  throw badRequest(`Unknown type for todo data: ${kind}`);
}
