import { useEffect, useState } from 'preact/hooks';
import { ApiClient, type ApiCallRecord, ApiFailure } from '../../api/api-client.ts';
import type { LocalServer } from '../../host/local-server.ts';
import { forgetLogin, rememberLogin, type SavedLogin, savedLogin } from '../../login/saved-logins.ts';
import { ChatSession } from '../../state/session.ts';
import { ChatView } from './chat-view.tsx';
import { LoginScreen } from './login-screen.tsx';
import { apiLog } from '../api-log.ts';
import { route } from '../navigation.ts';

type Screen =
  | { kind: 'starting' }
  | { kind: 'login'; server: string; notice?: string }
  | { kind: 'chat'; login: SavedLogin; session: ChatSession };

const EXPIRED = 'Your login is no longer valid on this server (the realm may have been replaced); please log in again.';

/** Marks the page for people's scripts and tests (runtime contract 5). */
function markApp(state: 'starting' | 'ready'): void {
  document.documentElement.dataset.app = state;
}

function recordCall(record: ApiCallRecord): void {
  apiLog.add({ ...record, source: 'app' });
}

/** The chat app: the login screen, or the chat of whoever is logged in in this tab. */
export function App({ local }: { local: LocalServer | null }) {
  const [screen, setScreen] = useState<Screen>({ kind: 'starting' });

  async function open(login: SavedLogin): Promise<void> {
    markApp('starting');
    try {
      if (!login.server && local) await local.ready;
      const { narrow, nearMessageId } = route.peek();
      const session = await ChatSession.start(new ApiClient(login.server, login, recordCall), { narrow, anchor: nearMessageId ?? 'first_unread' });
      await rememberLogin(login);
      setScreen({ kind: 'chat', login, session });
    } catch (error) {
      // A key the server no longer knows (the realm was replaced): log in again.
      const notice = error instanceof ApiFailure && error.status === 401 ? EXPIRED : String(error instanceof Error ? error.message : error);
      if (error instanceof ApiFailure && error.status === 401) await forgetLogin(login);
      setScreen({ kind: 'login', server: login.server, notice });
    }
  }

  useEffect(() => {
    void savedLogin().then((login) => (login ? open(login) : setScreen({ kind: 'login', server: '' })));
    // The server in this browser failed to start: say so (another server can still be chosen).
    local?.ready.catch((error: unknown) =>
      setScreen({ kind: 'login', server: '', notice: `The server in this browser could not start: ${error instanceof Error ? error.message : String(error)}` }),
    );
  }, []);

  useEffect(() => {
    if (screen.kind !== 'chat') return;
    const { session, login } = screen;
    // Checked on each change of the session's `expired` signal.
    return session.expired.subscribe((expired) => {
      if (!expired) return;
      session.stop();
      void forgetLogin(login).then(() => setScreen({ kind: 'login', server: login.server, notice: EXPIRED }));
    });
  }, [screen]);

  if (screen.kind === 'starting') return <p class="app-starting" role="status">Starting…</p>;
  if (screen.kind === 'login') {
    return (
      <>
        {screen.notice && (
          <p class="login-notice" role="alert">
            {screen.notice}
          </p>
        )}
        <LoginScreen local={local} initialServer={screen.server} onLogin={(login) => void open(login)} onReady={() => markApp('ready')} />
      </>
    );
  }
  return (
    <ChatView
      key={screen.login.email}
      session={screen.session}
      login={screen.login}
      local={screen.login.server ? null : local}
      onReady={() => markApp('ready')}
      onLogout={async () => {
        screen.session.stop();
        await forgetLogin(screen.login);
        setScreen({ kind: 'login', server: screen.login.server });
      }}
    />
  );
}
