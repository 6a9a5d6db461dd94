import { badNarrow, badRequest } from '../errors/api-error.ts';
import { listTooLong, MAX_LIST_LENGTH } from '../validation/list-limits.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { userByVisibleEmail } from '../permissions/email-visibility.ts';
import { dmKey } from '../storage/recipients.ts';
import type { UserRow } from '../storage/rows.ts';
import { parseSearchQuery } from './search-query.ts';
import type { HasOperand, IsOperand, NarrowTerm } from './narrow-terms.ts';

/** One narrow element after the structural check: the operand still as the client sent it. */
interface RawTerm {
  operator: string;
  operand: string | number | number[];
  negated: boolean;
}

type OperandKind = 'string' | 'string-or-int' | 'string-or-int-list' | 'required-string';

/** Operand types by operator, as upstream validates them; anything else takes a string. */
const OPERAND_KINDS: Record<string, OperandKind> = {
  channel: 'string-or-int',
  stream: 'string-or-int',
  id: 'string-or-int',
  sender: 'string-or-int',
  'dm-including': 'string-or-int',
  'group-pm-with': 'string-or-int',
  group_pm_with: 'string-or-int',
  dm: 'string-or-int-list',
  'pm-with': 'string-or-int-list',
  pm_with: 'string-or-int-list',
  search: 'required-string',
};

const IS_OPERANDS: Record<string, IsOperand> = {
  dm: 'dm',
  private: 'dm',
  starred: 'starred',
  unread: 'unread',
  mentioned: 'mentioned',
  alerted: 'alerted',
  resolved: 'resolved',
  followed: 'followed',
};

const HAS_OPERANDS: ReadonlySet<string> = new Set<HasOperand>(['link', 'image', 'attachment', 'reaction']);

/**
 * Upstream takes any number of terms; every term is checked against every candidate row, so
 * this server takes at most 100 (no client builds more than a handful).
 */
export const MAX_NARROW_TERMS = 100;

/** Upstream's largest message id (a PostgreSQL integer). */
const MAX_MESSAGE_ID = 2147483647;

/**
 * Parses a JSON-decoded narrow — objects `{operator, operand, negated?}` or legacy
 * `[operator, operand]` pairs — into resolved terms. Invalid structure is BAD_REQUEST as
 * upstream's parameter validation reports it; unknown operators, operands, channels and
 * users are BAD_NARROW.
 */
export function parseNarrow(raw: unknown, directory: RealmDirectory, viewer: UserRow): NarrowTerm[] {
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) throw badRequest('narrow is not a list');
  if (raw.length > MAX_NARROW_TERMS) throw badRequest(listTooLong('narrow', MAX_NARROW_TERMS));
  const rawTerms = raw.map((element: unknown, index) => checkElement(element, `narrow[${index}]`));
  const kinds = new ConversationKinds();
  const terms: NarrowTerm[] = [];
  const searchOperands: string[] = [];
  for (const term of rawTerms) {
    kinds.note(term);
    // Upstream joins every search operand with spaces and applies them as one search.
    if (term.operator === 'search' && !term.negated) {
      searchOperands.push(term.operand as string);
      continue;
    }
    const resolved = resolveTerm(term, directory, viewer);
    if (resolved) terms.push(resolved);
  }
  if (searchOperands.length > 0) {
    terms.push({ kind: 'search', negated: false, query: parseSearchQuery(searchOperands.join(' ')) });
  }
  return terms;
}

function checkElement(element: unknown, name: string): RawTerm {
  if (Array.isArray(element)) {
    if (element.length !== 2 || element.some((part) => typeof part !== 'string')) {
      throw badRequest(`Invalid ${name}: element is not a string pair`);
    }
    return checkOperand({ operator: element[0] as string, operand: element[1] as string, negated: false });
  }
  if (typeof element !== 'object' || element === null) throw badRequest(`Invalid ${name}: dict or list required`);
  const { operator, operand, negated } = element as Record<string, unknown>;
  if (operand === undefined || operand === null) throw badRequest(`Invalid ${name}: operand is missing`);
  if (operator === undefined || operator === null) throw badRequest(`Invalid ${name}: operator is missing`);
  if (typeof operator !== 'string') throw badRequest('operator is not a string');
  if (negated !== undefined && negated !== null && typeof negated !== 'boolean') {
    throw badRequest('negated is not a boolean');
  }
  return checkOperand({ operator, operand: operand as RawTerm['operand'], negated: negated === true });
}

function checkOperand(term: RawTerm): RawTerm {
  const { operand } = term;
  switch (OPERAND_KINDS[term.operator] ?? 'string') {
    case 'string':
      if (typeof operand !== 'string') throw badRequest('operand is not a string');
      break;
    case 'required-string':
      if (typeof operand !== 'string') throw badRequest('operand is not a string');
      if (operand.trim() === '') throw badRequest('operand cannot be blank');
      break;
    case 'string-or-int':
      if (typeof operand !== 'string' && !Number.isInteger(operand)) throw badRequest('operand is not a string or integer');
      break;
    case 'string-or-int-list':
      if (typeof operand === 'string') break;
      if (!Array.isArray(operand)) throw badRequest('operand is not a string or an integer list');
      if (operand.length > MAX_LIST_LENGTH) throw badRequest(listTooLong('operand', MAX_LIST_LENGTH));
      operand.forEach((item, index) => {
        if (!Number.isInteger(item)) throw badRequest(`operand[${index}] is not an integer`);
      });
      break;
  }
  return term;
}

/** Which conversation kind the positive terms ask for; a message cannot be both. */
class ConversationKinds {
  #channel = false;
  #dm = false;

  note(term: RawTerm): void {
    const isDm = term.operator === 'is' && (term.operand === 'dm' || term.operand === 'private');
    const channelLike = ['channel', 'stream', 'channels', 'streams', 'topic'].includes(term.operator);
    const dmLike = ['dm', 'pm-with', 'pm_with', 'dm-including', 'group-pm-with', 'group_pm_with'].includes(term.operator);
    // As upstream: negated terms say nothing, except that "not a DM" means a channel message.
    if (isDm) {
      if (term.negated) this.#channel = true;
      else this.#dm = true;
    } else if (!term.negated) {
      if (channelLike) this.#channel = true;
      if (dmLike) this.#dm = true;
    }
    if (this.#channel && this.#dm) throw badNarrow('No message can be both a channel message and direct message');
  }
}

function resolveTerm(term: RawTerm, directory: RealmDirectory, viewer: UserRow): NarrowTerm | null {
  const { operator, operand, negated } = term;
  switch (operator) {
    case 'channel':
    case 'stream': {
      const channel =
        typeof operand === 'number' ? directory.channels.get(operand) : directory.channelByName(operand as string);
      if (!channel) throw badNarrow(`unknown channel ${String(operand)}`);
      return { kind: 'channel', negated, channelId: channel.id };
    }
    case 'channels':
    case 'streams':
      if (operand !== 'public') throw badNarrow(`unknown channels operand ${String(operand)}`);
      return { kind: 'channels-public', negated };
    case 'topic':
      return { kind: 'topic', negated, topicKey: topicOperandKey(operand as string, directory) };
    case 'sender':
      return { kind: 'sender', negated, userId: userOperand(operand as string | number, directory, viewer).id };
    case 'dm-including':
      return { kind: 'dm-including', negated, userId: userOperand(operand as string | number, directory, viewer).id };
    case 'group-pm-with':
    case 'group_pm_with':
      return { kind: 'group-pm-with', negated, userId: userOperand(operand as string | number, directory, viewer).id };
    case 'dm':
    case 'pm-with':
    case 'pm_with':
      return { kind: 'dm', negated, dmKey: conversationKey(operand as string | number[], directory, viewer) };
    case 'id': {
      const text = String(operand);
      if (!/^\d+$/.test(text) || Number(text) > MAX_MESSAGE_ID) throw badNarrow('Invalid message ID');
      return { kind: 'id', negated, messageId: Number(text) };
    }
    case 'is': {
      const flag = IS_OPERANDS[operand as string];
      if (!flag) throw badNarrow(`unknown 'is' operand ${String(operand)}`);
      return { kind: 'is', negated, flag };
    }
    case 'has':
      if (!HAS_OPERANDS.has(operand as string)) throw badNarrow(`unknown 'has' operand ${String(operand)}`);
      return { kind: 'has', negated, property: operand as HasOperand };
    case 'in':
      if (operand === 'home') return { kind: 'in-home', negated };
      if (operand === 'all') return null;
      throw badNarrow(`unknown 'in' operand ${String(operand)}`);
    case 'near':
      return null;
    case 'search':
      return { kind: 'search', negated, query: parseSearchQuery(operand as string) };
    default:
      throw badNarrow(`unknown operator ${operator}`);
  }
}

/** The realm's empty-topic display name and "(no topic)" both name the empty topic. */
function topicOperandKey(operand: string, directory: RealmDirectory): string {
  if (operand === '(no topic)' || operand === directory.realm.empty_topic_display_name) return '';
  return operand.toLowerCase();
}

function userOperand(operand: string | number, directory: RealmDirectory, viewer: UserRow): UserRow {
  const user = typeof operand === 'number' ? directory.users.get(operand) : userByVisibleEmail(directory, viewer, operand);
  if (!user) throw badNarrow(`unknown user ${String(operand)}`);
  return user;
}

/** The conversation's key (participants plus the viewer), or null for an empty id list. */
function conversationKey(operand: string | number[], directory: RealmDirectory, viewer: UserRow): string | null {
  const described = typeof operand === 'string' ? operand : `[${operand.join(', ')}]`;
  if (Array.isArray(operand) && operand.length === 0) return null;
  const emails = typeof operand === 'string' ? operand.split(',') : [];
  if (emails.length > MAX_LIST_LENGTH) throw badRequest(listTooLong('operand', MAX_LIST_LENGTH));
  const users =
    typeof operand === 'string'
      ? emails.map((email) => userByVisibleEmail(directory, viewer, email))
      : operand.map((id) => directory.users.get(id));
  if (users.some((user) => user === undefined)) throw badNarrow(`unknown user in ${described}`);
  return dmKey([viewer.id, ...users.map((user) => user!.id)]);
}
