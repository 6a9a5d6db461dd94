import { useEffect, useState } from 'preact/hooks';
import { ApiClient, ApiFailure } from '../../api/api-client.ts';
import type { DemoAccount, LocalServer } from '../../host/local-server.ts';
import type { SavedLogin } from '../../login/saved-logins.ts';

interface Props {
  local: LocalServer | null;
  /** The server the last login used: '' is this browser's. */
  initialServer: string;
  onLogin(login: SavedLogin): void;
  /** Called once the form can log someone in, demo accounts shown (the page's readiness). */
  onReady(): void;
}

/**
 * Email + password (checked with POST /fetch_api_key), or one click per demo account of the
 * realm's scenario. The server field points the app at another server of this API.
 */
export function LoginScreen({ local, initialServer, onLogin, onReady }: Props) {
  const [server, setServer] = useState(initialServer);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [accounts, setAccounts] = useState<DemoAccount[]>([]);
  const onThisBrowser = server.trim() === '';

  useEffect(() => {
    if (!local || !onThisBrowser) {
      setAccounts([]);
      onReady();
      return;
    }
    let current = true;
    // demoAccounts waits for the server itself, and reads the scenario's passwords meanwhile.
    void local
      .demoAccounts()
      .then((found) => {
        if (!current) return;
        setAccounts(found);
        onReady();
      })
      // A server that failed to start is reported by the app; the form stays usable for another server.
      .catch(() => current && onReady());
    return () => {
      current = false;
    };
  }, [local, onThisBrowser]);

  /** `fullName` when already known (a demo account): one round trip fewer. */
  async function logIn(address: string, secret: string, fullName?: string): Promise<void> {
    setBusy(true);
    setError(null);
    const base = server.trim().replace(/\/+$/, '');
    try {
      if (!base && local) await local.ready;
      const api = new ApiClient(base, null);
      const answer = await api.post<{ api_key: string; email: string; user_id: number }>('/fetch_api_key', { username: address, password: secret });
      const name = fullName ?? (await new ApiClient(base, { email: answer.email, apiKey: answer.api_key }).get<{ full_name: string }>('/users/me')).full_name;
      onLogin({ server: base, email: answer.email, apiKey: answer.api_key, fullName: name });
    } catch (failure) {
      setError(failure instanceof ApiFailure || failure instanceof Error ? failure.message : String(failure));
      setBusy(false);
    }
  }

  return (
    <main class="login">
      <h1>Offline Realm</h1>
      <p class="login-lead">A team chat whose server runs {onThisBrowser ? 'in this browser' : `at ${server}`}.</p>
      <form
        class="login-form"
        onSubmit={(event) => {
          event.preventDefault();
          void logIn(email, password);
        }}
      >
        <label>
          Email
          <input type="email" name="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input type="password" name="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <details class="server-choice" open={!onThisBrowser}>
          <summary>Server: {onThisBrowser ? 'this browser' : server}</summary>
          <label>
            Server URL
            <input
              type="url"
              name="server"
              placeholder="empty: the server in this browser"
              value={server}
              onInput={(e) => setServer(e.currentTarget.value)}
            />
          </label>
          <p class="hint">Any server of this API, e.g. <code>npm run serve</code> at http://127.0.0.1:9991.</p>
        </details>
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Log in
        </button>
      </form>
      {accounts.length > 0 && (
        <section class="demo-accounts" aria-labelledby="demo-accounts-title">
          <h2 id="demo-accounts-title">Demo accounts</h2>
          <p class="hint">Open another tab and log in as someone else to chat with yourself.</p>
          <ul>
            {accounts.map((account) => (
              <li key={account.email}>
                <button type="button" disabled={busy} aria-label={`Log in as ${account.fullName}`} onClick={() => void logIn(account.email, account.password, account.fullName)}>
                  <span class="demo-name">{account.fullName}</span>
                  <span class="demo-email">{account.email}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
