import { type Narrow, narrowKey, reactionsNarrow } from '../../narrow/narrow.ts';
import { type ConversationsView, narrowHash, viewHash } from '../../narrow/narrow-url.ts';
import { useChat } from '../chat-context.ts';
import { slugNames } from '../slug-names.ts';
import { route } from '../navigation.ts';
import { ChannelSection } from './channel-section.tsx';
import { DirectMessagesSection } from './direct-messages-section.tsx';

function isCurrent(narrow: Narrow): boolean {
  const current = route.value.narrow;
  if (route.value.view !== undefined || narrow.kind === 'channel' || current.kind === 'channel') return false;
  return narrowKey(narrow) === narrowKey(current);
}

/** Views, channels by folder (with the selected channel's topics), direct messages. A drawer on narrow screens. */
export function Sidebar() {
  const { session, panel, composer } = useChat();
  const realm = session.realm;
  const names = slugNames(session);
  const unread = realm.unread.value;
  const conversationViews: { view: ConversationsView; label: string }[] = [
    { view: 'inbox', label: 'Inbox' },
    { view: 'recent', label: 'Recent conversations' },
  ];
  const views: { narrow: Narrow; label: string; count: number }[] = [
    { narrow: { kind: 'all' }, label: 'Combined feed', count: unread.count },
    { narrow: { kind: 'mentioned' }, label: 'Mentions', count: unread.countWhere((entry) => entry.mentioned) },
    { narrow: reactionsNarrow(session.me), label: 'Reactions', count: 0 },
    { narrow: { kind: 'starred' }, label: 'Starred messages', count: realm.starred.value.size },
  ];
  return (
    <nav class="sidebar" aria-label="Channels and conversations">
      <ul class="sidebar-views">
        {conversationViews.map(({ view, label }) => (
          <li key={view}>
            <a href={viewHash(view)} aria-current={route.value.view === view ? 'page' : undefined}>
              <span class="label">{label}</span>
            </a>
          </li>
        ))}
        {views.map((view) => (
          <li key={view.label}>
            <a
              href={narrowHash(view.narrow, names) || '#'}
              aria-current={isCurrent(view.narrow) ? 'page' : undefined}
            >
              <span class="label">{view.label}</span>
              {view.count > 0 && <span class="count">{view.count}</span>}
            </a>
          </li>
        ))}
        {realm.navigationViews.value
          .filter((view) => view.is_pinned && view.name)
          .map((view) => (
            <li key={view.fragment}>
              <a href={`#${view.fragment}`} aria-current={route.value && location.hash === `#${view.fragment}` ? 'page' : undefined}>
                <span class="label">{view.name}</span>
              </a>
            </li>
          ))}
        <PanelView which="drafts" label="Drafts" count={composer.kept.value?.length ?? 0} />
        {realm.scheduledMessages.value.length > 0 && <PanelView which="scheduled" label="Scheduled messages" count={realm.scheduledMessages.value.length} />}
      </ul>
      <ChannelSection />
      <button type="button" class="sidebar-action" onClick={() => (panel.value = 'channels')}>
        Browse channels
      </button>
      <DirectMessagesSection />
    </nav>
  );
}

/** Upstream's Drafts and Scheduled messages views, which are side panels here: the row opens (again: closes) its panel. */
function PanelView({ which, label, count }: { which: 'drafts' | 'scheduled'; label: string; count: number }) {
  const { panel, drawerOpen } = useChat();
  const open = panel.value === which;
  return (
    <li>
      <button
        type="button"
        class="sidebar-view"
        aria-expanded={open}
        onClick={() => {
          panel.value = open ? 'none' : which;
          drawerOpen.value = false;
        }}
      >
        <span class="label">{label}</span>
        {count > 0 && <span class="count">{count}</span>}
      </button>
    </li>
  );
}
