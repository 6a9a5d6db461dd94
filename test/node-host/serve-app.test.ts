import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDS } from '../support/test-realm.ts';
import { killServeProcesses, runServeToExit, startServe, writeScenarioFile } from './serve-process.ts';

let dir: string;
let appDir: string;
let scenarioFile: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'realm-serve-app-'));
  scenarioFile = writeScenarioFile(dir);
  appDir = join(dir, 'app');
  mkdirSync(join(appDir, 'assets'), { recursive: true });
  writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>Offline Realm</title>');
  writeFileSync(join(appDir, 'assets', 'index-abc.js'), 'console.log(1);');
});

afterEach(() => {
  killServeProcesses();
  rmSync(dir, { recursive: true, force: true });
});

const linkFor = (address: string, port: string) => `http://${address}:${port}/?sync=http://${address}:${port}`;

describe('npm run serve -- --app', () => {
  it('serves the built app and the API on one port and prints the link a trainee opens', async () => {
    const server = await startServe(['--port', '0', '--scenario', scenarioFile, '--app', '--app-dir', appDir]);
    const { port } = new URL(server.url);
    await vi.waitFor(() => expect(server.stdout()).toContain(linkFor('127.0.0.1', port)), { timeout: 5000, interval: 20 });
    expect(server.stdout().split('\n')[0]).toBe(`listening on ${server.url}`);

    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toBe('<!doctype html><title>Offline Realm</title>');
    const script = await fetch(`${server.url}/assets/index-abc.js`);
    expect([script.status, script.headers.get('content-type'), script.headers.get('cache-control')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    ]);
    const settings = await fetch(`${server.url}/api/v1/server_settings`);
    expect(settings.status).toBe(200);
    expect(await settings.json()).toMatchObject({ result: 'success', msg: '' });
  });

  it('answers a JSON 404 for a file the build lacks and for a path that climbs out of it', async () => {
    const server = await startServe(['--port', '0', '--scenario', scenarioFile, '--app', '--app-dir', appDir]);
    for (const path of ['/missing.js', '/assets/%2e%2e/%2e%2e/scenario.json', '/..%2fscenario.json']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
    }
  });

  it('prints one link per IPv4 address of the machine, and the loopback one, when bound to every address', async () => {
    const server = await startServe(['--port', '0', '--host', '0.0.0.0', '--scenario', scenarioFile, '--app', '--app-dir', appDir]);
    const { port } = new URL(server.url);
    const lan = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address?.family === 'IPv4' && !address.internal)
      .map((address) => address!.address);
    const expected = [...lan, '127.0.0.1'].map((address) => `  ${linkFor(address, port)}`);
    await vi.waitFor(() => expect(server.stdout()).toContain(linkFor('127.0.0.1', port)), { timeout: 5000, interval: 20 });
    expect(server.stdout().split('\n').filter((line) => line.startsWith('  http'))).toEqual(expected);
  });

  it('lets a browser replica check its first login at /sync/v1/fetch_api_key', async () => {
    const server = await startServe(['--port', '0', '--scenario', scenarioFile, '--app', '--app-dir', appDir]);
    const response = await fetch(`${server.url}/sync/v1/fetch_api_key`, {
      method: 'POST',
      body: new URLSearchParams({ username: 'mark@zulip.test', password: 'mark-pass' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      result: 'success',
      msg: '',
      api_key: 'MarkKey0000000000000000000000004',
      email: 'mark@zulip.test',
      user_id: IDS.mark,
    });
  });

  it('refuses to start without a built app, saying to build it', async () => {
    const missing = join(dir, 'nothing-here');
    const exit = await runServeToExit(['--port', '0', '--scenario', scenarioFile, '--app', '--app-dir', missing]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe(`offline-realm: --app: no built app in ${missing} (no index.html); run \`npm run build\` first, or name its output with --app-dir\n`);
    expect(exit.stdout).toBe('');
  });

  it('refuses --app-dir without --app', async () => {
    const exit = await runServeToExit(['--port', '0', '--app-dir', appDir]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(/^offline-realm: --app-dir needs --app\n/);
  });
});
