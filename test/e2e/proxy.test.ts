// HTTPS_PROXY / HTTP_PROXY / NO_PROXY, honoured as curl does, through a real proxy on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { startHttpProxy, type HttpProxy } from '../helpers/http-proxy.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const CLIENT = { id: 'proxy-client', secret: 'ProxySecret0123456789' };
let dir: string;
let cfg: string;
let server: ServeProcess;
let proxy: HttpProxy;
const cli = (args: string[], env: Record<string, string | undefined>) => runCli(args, { configDir: cfg, env });

beforeAll(async () => {
  dir = await makeTempDir('chamberctl-proxy-');
  cfg = `${dir}/cfg`;
  server = await startServeProcess(['--port', '0', '--db', ':memory:', '--client-id', CLIENT.id, '--client-secret', CLIENT.secret, '--quiet'], {
    CHAMBERCTL_CONFIG_DIR: `${dir}/cfg-serve`,
  });
  proxy = await startHttpProxy();
  const r = await runCli(['login', '--base-url', server.baseUrl, '--client-id', CLIENT.id, '--client-secret-stdin'], { configDir: cfg, input: CLIENT.secret });
  expect(r.exitCode, r.stderr).toBe(0);
});
afterAll(async () => {
  await server?.stop();
  await proxy?.close();
  await removeTempDir(dir);
});

const target = () => new URL(server.baseUrl).host;

describe('proxies from the environment', () => {
  it('sends every request of a command through HTTP_PROXY (token and list alike)', async () => {
    proxy.passed.length = 0;
    const r = await cli(['chambers', 'list', '--per-page', '2', '--json'], { HTTP_PROXY: proxy.url });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    expect(proxy.passed.length).toBeGreaterThan(0);
    expect(proxy.passed.every((h) => h === target())).toBe(true);
  });

  it('reads the lower-case name too, and goes around the proxy for NO_PROXY hosts', async () => {
    proxy.passed.length = 0;
    expect((await cli(['chambers', 'list', '--per-page', '1'], { http_proxy: proxy.url })).exitCode).toBe(0);
    expect(proxy.passed.length).toBeGreaterThan(0);

    proxy.passed.length = 0;
    const around = await cli(['chambers', 'list', '--per-page', '1'], { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    expect(around.exitCode, around.stderr).toBe(0);
    expect(proxy.passed).toEqual([]);
  });

  it('HTTPS_PROXY alone is not used for an http:// server, as curl does', async () => {
    proxy.passed.length = 0;
    expect((await cli(['chambers', 'list', '--per-page', '1'], { HTTPS_PROXY: proxy.url })).exitCode).toBe(0);
    expect(proxy.passed).toEqual([]);
  });

  it('a proxy that cannot be reached is one clear error, exit 1', async () => {
    const r = await cli(['chambers', 'list'], { HTTP_PROXY: 'http://user:hunter2@127.0.0.1:9' });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: cannot reach .* \(through the proxy http:\/\/user:\*\*\*@127\.0\.0\.1:9\)$/m);
    expect(r.stderr).not.toContain('hunter2');
  });
});
