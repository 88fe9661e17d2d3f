// Node 22 (and 24 before 24.15) prints an ExperimentalWarning on stderr when node:sqlite
// loads; chamberctl supports those runtimes and prints no such line
// (src/storage/sqlite/node-sqlite.ts). Checked on whatever runtime runs the tests: CI runs
// them on 22, where node:sqlite warns, as well as on 24 and 26.
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/sqlite/database.js';
import { assertBuilt, cleanEnv, makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';

const WARNING = /ExperimentalWarning: SQLite is an experimental feature/;
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
/** Whether node:sqlite itself warns on this runtime (no longer from 24.15 on). */
const nodeWarns = major < 24 || (major === 24 && minor < 15);

let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await makeTempDir('chamberctl-sqlite-warning-');
});
afterAll(() => removeTempDir(dir));

describe(`node:sqlite's experimental warning on Node ${process.versions.node}`, () => {
  it(`is ${nodeWarns ? '' : 'not '}printed by node itself when the module loads`, async () => {
    const r = await execa(process.execPath, ['-e', "require('node:sqlite')"], { env: cleanEnv(), extendEnv: false });
    expect(WARNING.test(r.stderr)).toBe(nodeWarns);
  });

  it('is never printed by a command that opens a SQLite database: stderr stays empty', async () => {
    const db = join(dir, 'team.db');
    openDatabase(db).close(); // an empty file: the commands of team access open no missing one
    const added = await runCli(['clients', 'add', 'alice', '--db', db, '--json'], { configDir: join(dir, 'config') });
    expect(added.exitCode, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ client_id: 'alice', scope: 'write' });
    expect(added.stderr).toBe('');
    const audit = await runCli(['audit', '--db', db], { configDir: join(dir, 'config') });
    expect(audit.exitCode, audit.stderr).toBe(0);
    expect(audit.stdout).toMatch(/client\.add\s+alice/);
    expect(audit.stderr).toBe('');
  });

  it('leaves every other warning to be printed', async () => {
    // the CLI's own entry with a warning of the same type emitted after SQLite loaded
    const script = `
      process.argv = [process.execPath, 'chamberctl', 'clients', 'list', '--db', ${JSON.stringify(join(dir, 'team.db'))}, '--json'];
      process.once('beforeExit', () => process.emitWarning('another feature is experimental', 'ExperimentalWarning'));
      require(${JSON.stringify(join(import.meta.dirname, '../../bin/chamberctl.js'))});`;
    const r = await execa(process.execPath, ['-e', script], { env: { ...cleanEnv(), CHAMBERCTL_CONFIG_DIR: join(dir, 'config') }, extendEnv: false, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ client_id: 'alice' })]);
    expect(r.stderr).not.toMatch(WARNING);
    expect(r.stderr).toMatch(/ExperimentalWarning: another feature is experimental/);
  });
});
