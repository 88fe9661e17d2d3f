// npm run bench:snapshot — snapshot export and import of the large demo data (100k chambers,
// 1M members, 100k events) on SQLite: seeds it into a temporary database, exports it to a
// file, imports that file into a fresh database, and prints rows/s, the peak RSS of each
// step, and the file's size. Export and import each run in a child process of their own
// (this file again, with a step name), so each peak RSS is that step's alone, not the seed's,
// and with V8's heap capped at 64 MiB: a step whose JavaScript memory grew with the rows
// would fail here. (The rest of the RSS is SQLite's page cache and memory map, bounded by
// the settings the snapshot commands use, and the sorter of the index rebuild.)
// The check that the re-export is byte-identical is printed too (it reads the files once more).
// A floor is measured as well (not a target): the same rows copied by SQLite alone, table to
// table from the seeded database by INSERT … SELECT inside the import's own load (its
// settings, its index rebuild, its recount, commit and checkpoint): what an import on SQLite
// pays before a line of the file is read, parsed or checked.
//
//   BENCH_SIZE  large (default) or standard
//   BENCH_KEEP  set to keep the temporary directory
// Figures only: the target (>= 100,000 rows/s each) is printed as PASS/MISS, never asserted.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/storage/open.js';
import { peakRssMiB } from './lib/peak-rss.js';
import { exportSnapshotToFile, importSnapshotFile } from '../src/snapshot/files.js';
import { seedDemo } from '../src/storage/seed/index.js';
import { SqliteSnapshotIo } from '../src/storage/sqlite/snapshot-io.js';
import { Storage } from '../src/storage/sqlite/storage.js';

interface StepResult {
  rows: number;
  seconds: number;
  maxRssMiB: number;
}

const [, , step, a, b] = process.argv;

if (step === 'floor') {
  // A child: the floor, from the seeded database `a` into a fresh database `b`.
  const { sqlite: store } = await openDatabase(b!, {}, { cacheMiB: 64 });
  if (!store) throw new Error('the floor is measured on SQLite');
  const db = store.storage.db;
  db.prepare('ATTACH DATABASE ? AS src').run(a!); // outside the load's transaction, as SQLite requires
  const columns = {
    chambers: 'id, name, type, hq_id, status, street, city, postal_code, country, created_at, raw',
    members: 'id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw',
    events: 'id, chamber_id, title, status, starts_at, ends_at, location, raw',
  };
  const started = performance.now();
  const rows = (await new SqliteSnapshotIo(store.storage, b!).load({ replace: false }, async () => {
    let n = 0;
    // in id order, as a snapshot file holds them
    for (const [table, cols] of Object.entries(columns)) n += db.prepare(`INSERT INTO main.${table} (${cols}) SELECT ${cols} FROM src.${table} ORDER BY id`).run().changes;
    return n;
  }))!;
  const seconds = (performance.now() - started) / 1000;
  db.exec('DETACH DATABASE src');
  await store.close();
  const result: StepResult = { rows, seconds, maxRssMiB: peakRssMiB() };
  process.stdout.write(JSON.stringify(result));
} else if (step === 'export' || step === 'import') {
  // A child: one step, its figures as JSON on stdout.
  const db = await openDatabase(step === 'export' ? a! : b!, {}, { cacheMiB: 64 }); // the snapshot commands' setting
  const started = performance.now();
  const counts = step === 'export' ? await exportSnapshotToFile(db.snapshot(), b!) : await importSnapshotFile(db.snapshot(), a!, { replace: false });
  const seconds = (performance.now() - started) / 1000;
  await db.close();
  const rows = counts!.chambers + counts!.members + counts!.events;
  const result: StepResult = { rows, seconds, maxRssMiB: peakRssMiB() };
  process.stdout.write(JSON.stringify(result));
} else {
  const size = process.env.BENCH_SIZE === 'standard' ? 'standard' : 'large';
  const dir = mkdtempSync(join(tmpdir(), 'chamberctl-bench-snapshot-'));
  const self = fileURLToPath(import.meta.url);
  const run = (...args: string[]) => JSON.parse(execFileSync(process.execPath, ['--max-old-space-size=64', self, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 })) as StepResult;
  const sha = (file: string) =>
    new Promise<string>((resolve, reject) => {
      const h = createHash('sha256');
      createReadStream(file).on('data', (d) => h.update(d)).on('end', () => resolve(h.digest('hex'))).on('error', reject);
    });
  try {
    const source = join(dir, 'source.db');
    const storage = new Storage(source);
    const t0 = performance.now();
    const seeded = seedDemo(storage, { size, now: new Date('2025-06-01T12:00:00.000Z') });
    storage.close();
    console.log(`seed:      ${seeded.chambers} chambers, ${seeded.members} members, ${seeded.events} events in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const file = join(dir, 'directory.snapshot');
    const exported = run('export', source, file);
    const imported = run('import', file, join(dir, 'copy.db'));
    const again = run('export', join(dir, 'copy.db'), join(dir, 'again.snapshot'));
    const floor = run('floor', source, join(dir, 'floor.db'));
    const line = (name: string, r: StepResult) => {
      const rate = r.rows / r.seconds;
      console.log(
        `${name.padEnd(10)} ${r.rows} rows in ${r.seconds.toFixed(2)} s = ${Math.round(rate).toLocaleString('en')} rows/s ` +
          `(target 100,000: ${rate >= 100_000 ? 'PASS' : 'MISS'}), peak RSS ${r.maxRssMiB.toFixed(0)} MiB`,
      );
    };
    line('export:', exported);
    line('import:', imported);
    console.log(
      `floor:     ${floor.rows} rows in ${floor.seconds.toFixed(2)} s = ${Math.round(floor.rows / floor.seconds).toLocaleString('en')} rows/s: ` +
        'SQLite alone, the rows copied from the seeded database inside the import\'s load (no file, parsing or checks; not a target)',
    );
    console.log(`file:      ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB`);
    const same = (await sha(file)) === (await sha(join(dir, 'again.snapshot')));
    console.log(`re-export: ${same ? 'byte-identical' : 'DIFFERENT'} (${again.seconds.toFixed(2)} s)`);
  } finally {
    if (process.env.BENCH_KEEP) console.log(`kept:      ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}
