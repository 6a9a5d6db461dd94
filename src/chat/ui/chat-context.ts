import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Signal } from '@preact/signals';
import type { LocalServer } from '../host/local-server.ts';
import type { ChatSession } from '../state/session.ts';
import type { ComposerState } from '../state/composer-state.ts';

/** What every part of the chat screen reaches: the session, the page's local server (if any) and shared UI state. */
export interface ChatContextValue {
  session: ChatSession;
  local: LocalServer | null;
  composer: ComposerState;
  /** The message keyboard actions apply to (upstream's "selected message"). */
  selectedId: Signal<number | null>;
  /** Which side panel is open. */
  panel: Signal<'none' | 'api-log' | 'settings' | 'admin' | 'channels' | 'scheduled' | 'drafts' | 'realm' | 'users'>;
  drawerOpen: Signal<boolean>;
}

export const ChatContext = createContext<ChatContextValue | null>(null);

export function useChat(): ChatContextValue {
  const value = useContext(ChatContext);
  if (!value) throw new Error('useChat outside the chat screen');
  return value;
}
