// Requests/s of the Node host over loopback (`offline-realm serve` as a child process) for
// `GET /users/me` and `POST /messages`, each beside bare `node:http` answering a fixed JSON body
// (also a child), with the same load: autocannon, 10 connections, 5 s, after a 1 s warm-up.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { type BenchScenario, benchScenario, HOT_CHANNEL } from './realm-fixture.ts';
import { type ServerChild, startServerChild } from './server-child.ts';

export const CONNECTIONS = 10;
export const DURATION_SECONDS = 5;
const WARMUP_SECONDS = 1;

const CLI = fileURLToPath(new URL('../src/hosts/offline-realm-cli.ts', import.meta.url));
const BARE_SERVER = fileURLToPath(new URL('./bare-http-server.ts', import.meta.url));

export interface Throughput {
  /** Successful (2xx) answers per second. */
  rate: number;
  /** Answers that were not 2xx, of `answered`. */
  failed: number;
  answered: number;
  latencyP50: number;
  /** The 1-minute load average when the figure started. */
  load: number;
  /**
   * The server's CPU time per answer, in µs (null off Linux): unlike the rate, barely moved by
   * other processes on a shared machine, so it shows where a run under load would land quiet.
   */
  cpuPerAnswer: number | null;
}

export interface HttpFigure {
  what: string;
  ours: Throughput;
  bare: Throughput;
}

interface Load {
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** The scenario's realm in the Node host; the bare server answers with our `/users/me` body. */
export async function measureHttpThroughput(): Promise<HttpFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const scenarioPath = join(dir, 'scenario.json');
  writeFileSync(scenarioPath, JSON.stringify(benchScenario()));
  const ours = await startServerChild([CLI, 'serve', '--port', '0', '--scenario', scenarioPath]);
  try {
    const { user, channelName } = senderOf(benchScenario());
    const auth = { Authorization: `Basic ${btoa(`${user.email}:${user.api_key}`)}` };
    const usersMe: Load = { path: '/api/v1/users/me', method: 'GET', headers: auth };
    const send: Load = {
      path: '/api/v1/messages',
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ type: 'stream', to: channelName, topic: 'http bench', content: 'load from autocannon' }).toString(),
    };
    const answer = await fetch(`${ours.url}${usersMe.path}`, { headers: usersMe.headers });
    const fixedBody = await answer.text();
    if (answer.status !== 200) throw new Error(`GET /users/me answered ${answer.status}: ${fixedBody}`);
    const bare = await startServerChild([BARE_SERVER], { BARE_BODY: fixedBody });
    try {
      const figures: HttpFigure[] = [];
      for (const load of [usersMe, send]) {
        const bareRate = await measure(bare, load);
        const ourRate = await measure(ours, load);
        figures.push({ what: `${load.method} ${load.path.replace('/api/v1', '')}`, ours: ourRate, bare: bareRate });
      }
      return figures;
    } finally {
      await bare.stop();
    }
  } finally {
    await ours.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A subscriber of the hot channel (10 subscribers), so a send writes what the send figure's does. */
function senderOf(scenario: BenchScenario): { user: { email: string; api_key: string }; channelName: string } {
  const channel = scenario.channels.find((c) => c.name === HOT_CHANNEL)!;
  const user = scenario.users.find((u) => u.email === channel.subscribers[1])!;
  return { user, channelName: channel.name };
}

async function measure(server: ServerChild, load: Load): Promise<Throughput> {
  const options = { url: `${server.url}${load.path}`, connections: CONNECTIONS, method: load.method, headers: load.headers, body: load.body };
  await autocannon({ ...options, duration: WARMUP_SECONDS });
  const started = loadavg()[0]!;
  const cpuBefore = server.cpuMicroseconds();
  const result = await autocannon({ ...options, duration: DURATION_SECONDS });
  const cpuAfter = server.cpuMicroseconds();
  // Dropped connections would measure nothing; error answers are counted and shown, not timed as work.
  if (result.errors > 0) throw new Error(`${load.method} ${server.url}${load.path}: ${result.errors} connection errors`);
  const answered = result.requests.total;
  return {
    rate: result['2xx'] / result.duration,
    failed: result.non2xx,
    answered,
    latencyP50: result.latency.p50,
    load: started,
    cpuPerAnswer: cpuBefore === null || cpuAfter === null || answered === 0 ? null : (cpuAfter - cpuBefore) / answered,
  };
}
