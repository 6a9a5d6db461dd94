import type { SlugSource } from '../narrow/narrow-url.ts';
import type { ChatSession } from '../state/session.ts';

/** The channel and user names a narrow's URL is spelt with, as the session knows them. */
export function slugNames(session: ChatSession): SlugSource {
  return { channelName: (id: number) => session.realm.channelName(id), userName: (id: number) => session.realm.users.value.get(id)?.full_name };
}
