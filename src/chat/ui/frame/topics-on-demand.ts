import { useMemo } from 'preact/hooks';
import type { Channel } from '../../api/wire-types.ts';
import type { ChatSession } from '../../state/session.ts';
import { channelTopicNames } from '../messages/message-operations.ts';

interface Entry {
  /** The channel's `topicChanges` count it was fetched at: a new topic, a move or a deletion fetches again. */
  version: number | undefined;
  /** Newest first; undefined while fetched. */
  topics?: string[];
}

/**
 * Channels' topics for the search box's `topic:` suggestions, as upstream's search fetches a
 * channel's topic history when first asked: undefined at first, then `onLoaded` is called (to
 * offer them while the person is still there).
 */
export function useTopicsOnDemand(session: ChatSession, onLoaded: () => void): (channel: Channel) => string[] | undefined {
  return useMemo(() => {
    const entries = new Map<number, Entry>();
    return (channel: Channel) => {
      const version = session.realm.topicChanges.peek().get(channel.stream_id);
      const known = entries.get(channel.stream_id);
      if (known && known.version === version) return known.topics;
      const entry: Entry = { version };
      entries.set(channel.stream_id, entry);
      channelTopicNames(session, channel.stream_id).then(
        (names) => {
          entry.topics = names;
          onLoaded();
        },
        // Not kept: the next keystroke asks again.
        () => entries.delete(channel.stream_id),
      );
      return undefined;
    };
  }, [session]);
}
