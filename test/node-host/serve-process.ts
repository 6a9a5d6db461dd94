import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { TEST_SCENARIO } from '../support/test-realm.ts';

const CLI = new URL('../../src/hosts/offline-realm-cli.ts', import.meta.url).pathname;
const START_TIMEOUT_MS = 15_000;

/** A `npm run serve` process started by a test. */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything printed so far, the listening line included. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

export interface ServeExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

const running = new Set<ChildProcess>();

/** Kills every process this file started; call from afterEach. */
export function killServeProcesses(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

function spawnServe(args: string[]): { child: ChildProcess; stdout: string[]; stderr: string[]; exited: Promise<number | null> } {
  // INIT_CWD is what npm sets; cleared so relative paths resolve against the test's cwd.
  const env = { ...process.env };
  delete env.INIT_CWD;
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  running.add(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    });
  });
  return { child, stdout, stderr, exited };
}

/** Starts the server and resolves once it has printed its listening line. */
export async function startServe(args: string[]): Promise<ServeProcess & { firstLine: string }> {
  const { child, stdout, stderr, exited } = spawnServe(args);
  const lines = createInterface({ input: child.stdout! });
  const firstLine = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr.join('')}`)), START_TIMEOUT_MS);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${stderr.join('')}`));
    });
  });
  const url = firstLine.replace(/^listening on /, '');
  return { child, url, firstLine, stdout: () => stdout.join(''), stderr: () => stderr.join(''), exited };
}

/** Runs the server expecting it to refuse to start; resolves with what it printed. */
export async function runServeToExit(args: string[]): Promise<ServeExit> {
  const { stdout, stderr, exited } = spawnServe(args);
  const code = await exited;
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

/** Writes `scenario` (default: the shared test realm) as a scenario file in `dir`. */
export function writeScenarioFile(dir: string, scenario: unknown = TEST_SCENARIO, name = 'scenario.json'): string {
  const path = join(dir, name);
  writeFileSync(path, typeof scenario === 'string' ? scenario : JSON.stringify(scenario));
  return path;
}

/** Basic auth for a user of the shared test realm. */
export function basicAuth(email: string, apiKey: string): Record<string, string> {
  return { Authorization: `Basic ${btoa(`${email}:${apiKey}`)}` };
}
