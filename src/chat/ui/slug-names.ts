import type { TermNames } from '../narrow/narrow.ts';
import type { SlugSource } from '../narrow/narrow-url.ts';
import type { RealmState } from '../state/realm-state.ts';
import type { ChatSession } from '../state/session.ts';

/** The channel and user names a narrow's URL is spelt with, as the session knows them. */
export function slugNames(session: ChatSession): SlugSource {
  return { channelName: (id: number) => session.realm.channelName(id), userName: (id: number) => session.realm.users.value.get(id)?.full_name };
}

/** The names a terms narrow is written with in the search syntax: channels by name, people by email. */
export function termNames(realm: RealmState): TermNames {
  return { channelName: (id: number) => realm.channelName(id), userEmail: (id: number) => realm.users.value.get(id)?.email };
}
