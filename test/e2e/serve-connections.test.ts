// serve --header-timeout and --max-connections reach the server (docs/server-behaviour.md#limits);
// a bad value is a usage error before anything starts.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { parseAnswer } from '../helpers/raw-http.js';
import { logMessages, startServeProcess } from '../helpers/serve-process.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('chamberctl-serve-connections-');
});
afterAll(() => removeTempDir(dir));

/** Opens a connection, writes `text`, and returns what it received once it closed and after how long. */
function exchange(baseUrl: string, text: string): Promise<{ data: string; ms: number }> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(baseUrl).port), '127.0.0.1');
    let data = '';
    const start = performance.now();
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ data, ms: performance.now() - start }));
    if (text) socket.write(text);
  });
}

describe('serve --header-timeout and --max-connections', () => {
  it('connections past the cap are closed unanswered; a half-sent request is a 408 after the timeout', async () => {
    const server = await startServeProcess(['--port', '0', '--db', ':memory:', '--seed', 'none', '--header-timeout', '1', '--max-connections', '20'], {
      CHAMBERCTL_CONFIG_DIR: `${dir}/cfg`,
    });
    try {
      // 30 at once, each sending half a request: at most 20 are let in (the test's own
      // connections to the server count too), and those get their 408 after a second
      const all = await Promise.all(Array.from({ length: 30 }, () => exchange(server.baseUrl, 'GET /livez HTTP/1.1\r\nHost: x\r\n')));
      const answered = all.filter((c) => c.data !== '');
      expect(all.length - answered.length).toBeGreaterThanOrEqual(10);
      expect(answered.length).toBeGreaterThan(0);
      for (const c of answered) {
        expect(parseAnswer(c.data).status).toBe(408);
        expect(c.ms).toBeGreaterThanOrEqual(950);
      }
    } finally {
      const { stderr } = await server.stop();
      expect(logMessages(stderr).join('\n')).toMatch(/warning: \d+ new connections? closed unanswered: 20 were open/);
    }
  });

  it.each([
    ['--header-timeout', '0', '--header-timeout must be a number of seconds from 1 to 600, not "0"'],
    ['--header-timeout', '1.5', '--header-timeout must be a number of seconds from 1 to 600, not "1.5"'],
    ['--max-connections', '0', '--max-connections must be a number from 1 to 1000000, not "0"'],
    ['--max-connections', 'many', '--max-connections must be a number from 1 to 1000000, not "many"'],
  ])('%s %s is a usage error', async (flag, value, message) => {
    const r = await runCli(['serve', '--db', ':memory:', '--port', '0', flag, value], { configDir: `${dir}/cfg-bad` });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(`error: ${message}`);
  });
});
