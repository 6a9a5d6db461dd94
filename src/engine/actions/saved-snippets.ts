/**
 * A user's saved snippets: Markdown texts to insert into messages. Each change is announced to
 * the owner's queues only (`saved_snippets` add/update/remove).
 */
import { ApiError, badRequest } from '../errors/api-error.ts';
import { charLength, MAX_MESSAGE_LENGTH } from '../validation/message-limits.ts';
import { nextId, type RealmDatabase } from '../storage/database.ts';
import type { SavedSnippetRow, UserRow } from '../storage/rows.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { savedSnippetToWire } from '../wire/saved-snippet-wire.ts';

const MAX_SNIPPET_TITLE_LENGTH = 60;

const doesNotExist = () => new ApiError('Saved snippet does not exist.', { status: 404 });

export async function createSavedSnippet(scope: CallerScope, input: { title: string; content: string }): Promise<number> {
  const actor = scope.caller;
  const title = checkedTitle(input.title);
  const content = checkedContent(input.content);
  const row: SavedSnippetRow = { id: await nextId(scope.db, 'saved_snippet'), user_id: actor.id, title, content, date_created: scope.now };
  await scope.db.saved_snippets.add(row);
  scope.notify({ event: { type: 'saved_snippets', op: 'add', saved_snippet: savedSnippetToWire(row) }, users: [actor.id] });
  return row.id;
}

/** Changes the given fields; with neither given, nothing changes and no event is sent (as upstream). */
export async function editSavedSnippet(scope: CallerScope, change: { id: number; title?: string; content?: string }): Promise<void> {
  const { caller: actor } = scope;
  const { id } = change;
  const title = change.title === undefined ? undefined : checkedTitle(change.title);
  const content = change.content === undefined ? undefined : checkedContent(change.content);
  if (title === undefined && content === undefined) return;
  const row = await ownSnippet(scope.db, actor, id);
  const updated: SavedSnippetRow = { ...row, title: title ?? row.title, content: content ?? row.content };
  await scope.db.saved_snippets.put(updated);
  scope.notify({ event: { type: 'saved_snippets', op: 'update', saved_snippet: savedSnippetToWire(updated) }, users: [actor.id] });
}

export async function deleteSavedSnippet(scope: CallerScope, id: number): Promise<void> {
  const actor = scope.caller;
  await ownSnippet(scope.db, actor, id);
  await scope.db.saved_snippets.delete(id);
  scope.notify({ event: { type: 'saved_snippets', op: 'remove', saved_snippet_id: id }, users: [actor.id] });
}

/** Someone else's snippet is as unknown as a missing one. */
async function ownSnippet(db: RealmDatabase, actor: UserRow, id: number): Promise<SavedSnippetRow> {
  const row = await db.saved_snippets.get(id);
  if (!row || row.user_id !== actor.id) throw doesNotExist();
  return row;
}

function checkedTitle(raw: string): string {
  const title = raw.trim();
  if (title === '') throw badRequest('Title cannot be empty.');
  if (charLength(title) > MAX_SNIPPET_TITLE_LENGTH) throw badRequest(`title is too long (limit: ${MAX_SNIPPET_TITLE_LENGTH} characters)`);
  return title;
}

function checkedContent(raw: string): string {
  const content = raw.trim();
  if (content === '') throw badRequest('Content cannot be empty.');
  if (charLength(content) > MAX_MESSAGE_LENGTH) throw badRequest(`content is too long (limit: ${MAX_MESSAGE_LENGTH} characters)`);
  return content;
}
