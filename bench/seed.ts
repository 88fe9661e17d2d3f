// Seeds the large demo size (or `standard`) into a temporary file database and prints the
// rows and seconds. Usage, once bundled: node <bundle> [large|standard] [--keep]
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDemo, type SeedSizeName } from '../src/storage/seed/index.js';
import { Storage } from '../src/storage/sqlite/storage.js';

const size: SeedSizeName = process.argv[2] === 'standard' ? 'standard' : 'large';
const keep = process.argv.includes('--keep');
const dir = mkdtempSync(join(tmpdir(), 'chamberctl-seed-'));
const path = join(dir, 'bench.db');
const storage = new Storage(path);
try {
  const started = performance.now();
  const result = seedDemo(storage, { size, now: new Date('2025-06-01T12:00:00.000Z') });
  const seconds = (performance.now() - started) / 1000;
  const rows = result.chambers + result.members + result.events;
  console.log(`size:      ${size}`);
  console.log(`chambers:  ${result.chambers}`);
  console.log(`members:   ${result.members}`);
  console.log(`events:    ${result.events}`);
  const flagshipMembers = storage.db
    .prepare('SELECT count(*) FROM members WHERE chamber_id = ?')
    .pluck()
    .get(result.flagshipChamberId) as number;
  console.log(`flagship:  ${result.flagshipChamberId} (${flagshipMembers} members; the oldest chamber)`);
  console.log(`seconds:   ${seconds.toFixed(2)} (${Math.round(rows / seconds)} rows/s)`);
  const mib = (file: string) => (existsSync(file) ? statSync(file).size / 2 ** 20 : 0).toFixed(0);
  console.log(`file:      ${mib(path)} MiB, WAL ${mib(`${path}-wal`)} MiB${keep ? `, kept at ${path}` : ''}`);
} finally {
  storage.close();
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
