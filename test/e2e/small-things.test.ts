// Issue 43, item 6: small things found at the keyboard.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';

let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await makeTempDir('chamberctl-small-');
});
afterAll(() => removeTempDir(dir));

const cli = (args: string[]) => runCli(args, { configDir: join(dir, 'config'), env: { CHAMBERCTL_DATA_DIR: join(dir, 'data') } });

describe('small things', () => {
  it('bare chamberctl prints its help on stdout (chamberctl | less), exit 0', async () => {
    const r = await cli([]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Usage: chamberctl /);
    expect(r.stdout).toContain('Help topics:');
  });

  it('snapshot export -o FILE says the file is an argument, and writes nothing', async () => {
    const file = join(dir, 'out.snapshot');
    const r = await cli(['snapshot', 'export', '-o', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: snapshot export takes the file as an argument, not -o: chamberctl snapshot export ${file}\n`);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('members import --json FIELDS names an unknown field, as the list commands do', async () => {
    const r = await cli(['members', 'import', 'ch_x', '/dev/null', '--json', 'rows,valdi']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `error: --json: "valdi" is not a field of an import's summary; fields: chamber_id, file, dry_run, interrupted, rows, created, skipped, invalid, duplicate, failed, valid, last_line, elapsed_seconds, rows_per_second, report, ignored_columns\n`,
    );
  });
});
