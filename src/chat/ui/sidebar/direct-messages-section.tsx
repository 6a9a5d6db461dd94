import { DM_FEED, narrowKey } from '../../narrow/narrow.ts';
import { narrowHash } from '../../narrow/narrow-url.ts';
import { useChat } from '../chat-context.ts';
import { PresenceDot } from '../presence-dot.tsx';
import { StatusEmoji } from '../status-emoji.tsx';
import { slugNames } from '../slug-names.ts';
import { route } from '../navigation.ts';

/** Recent direct message conversations, newest first, with unread counts. */
export function DirectMessagesSection() {
  const { session } = useChat();
  const realm = session.realm;
  const names = slugNames(session);
  const current = route.value.narrow;
  const openKey = current.kind === 'dm' ? current.userIds.join(',') : null;
  const shown = realm.recentDms.value.filter((dm) => !realm.isMutedDm(dm.userIds)).slice(0, 20);
  return (
    <section class="dm-section" aria-label="Direct messages">
      <h3>
        <a class="section-link" href={narrowHash(DM_FEED, names)} aria-current={current.kind === 'terms' && narrowKey(current) === narrowKey(DM_FEED) ? 'page' : undefined}>
          Direct messages
        </a>
      </h3>
      <ul>
        {shown.map((dm) => {
          const key = dm.userIds.join(',');
          const count = realm.unread.value.countWhere((entry) => entry.dmKey === key);
          const label = key === String(session.me) ? `${realm.userName(session.me)} (you)` : realm.conversationName(dm);
          return (
            <li key={key}>
              <a href={narrowHash({ kind: 'dm', userIds: dm.userIds }, names)} aria-current={openKey === key ? 'page' : undefined}>
                {dm.userIds.length === 1 && <PresenceDot status={session.presence.statusOf(dm.userIds[0])} />}
                <span class="label">{label}</span>
                {dm.userIds.length === 1 && <StatusEmoji status={realm.userStatus.value.get(dm.userIds[0])} />}
                {count > 0 && <span class="count" aria-label={`${count} unread`}>{count}</span>}
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
