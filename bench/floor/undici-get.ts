// A floor of bench:startup: the request `chamberctl chambers list` makes, through the CLI's
// own dispatcher code (src/client/dispatcher.ts: undici's Pool, in the bundle's copy of
// undici that leaves node's Headers alone), loaded as the CLI is, by bin/load-bundle.js with
// V8's code cache and undici's start-up settings. No commander, config file, contract or rendering: what a
// command pays for undici before it does anything of its own.
import { directPool } from '../../src/client/dispatcher.js';

async function main() {
  const url = new URL(process.env.FLOOR_URL!);
  const pool = directPool(url.origin, { connectTimeoutMs: 10_000, requestTimeoutMs: 30_000 });
  const res = await pool.request({ method: 'GET', path: url.pathname + url.search, headers: { authorization: `Bearer ${process.env.FLOOR_TOKEN}` } });
  if (res.statusCode !== 200) process.exitCode = 1;
  process.stdout.write(await res.body.text());
  await pool.close();
}
void main();
