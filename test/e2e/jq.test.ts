// `--jq EXPR` (docs/manual/help-output.md): jq's language, run on exactly what `--json` prints.
// Each filter of jq/filters.ts gives, over real command output, what `--json | jq -r -c F`
// gives: with the machine's jq when it has one, and always as recorded.json says (jq's
// answers, recorded with CHAMBERCTL_RECORD_JQ=1), so the check runs with no jq too.
import { readFileSync, writeFileSync } from 'node:fs';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRecordingLoads } from '../helpers/bundle-loads.js';
import { runCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loggedIn, type LoggedIn } from '../commands/logged-in.js';
import { COMMANDS, FILTERS, type CommandName } from './jq/filters.js';

const RECORDED = new URL('./jq/recorded.json', import.meta.url);
const RECORD = process.env.CHAMBERCTL_RECORD_JQ === '1';

// the demo data as seeded at a fixed time, so that its dates, and the answers, stay the same
const NOW = new Date('2026-06-01T12:00:00.000Z');

let server: TestServer;
let cli: LoggedIn;
let chamberId: string;

beforeAll(async () => {
  server = await startTestServer({ now: () => NOW });
  cli = await loggedIn(server);
  chamberId = (await cli.json<Array<{ id: string }>>(['chambers', 'list', '--per-page', '1']))[0]!.id;
}, 60_000);
afterAll(async () => {
  await cli?.cleanup();
  await server?.close();
});

const argsOf = (name: CommandName) => COMMANDS[name].map((a) => (a === 'CH' ? chamberId : a));

/** The machine's jq, if it has one (CHAMBERCTL_TEST_JQ names another): `--json | jq -r -c F`. */
async function systemJq(): Promise<((filter: string, input: string) => Promise<string>) | undefined> {
  const jq = process.env.CHAMBERCTL_TEST_JQ ?? 'jq';
  const probe = await execa(jq, ['--version'], { reject: false });
  if (probe.failed) return undefined;
  return async (filter, input) => {
    const r = await execa(jq, ['-r', '-c', filter], { input, stripFinalNewline: false });
    return r.stdout;
  };
}

describe('--jq answers as jq does', () => {
  it(`${FILTERS.length} filters over the output of chambers, members and events commands`, async () => {
    expect(FILTERS.length).toBeGreaterThanOrEqual(40);
    const jq = await systemJq();
    const recorded: Record<string, string> = RECORD ? {} : JSON.parse(readFileSync(RECORDED, 'utf8'));
    const json = new Map<CommandName, string>();
    const wrong: string[] = [];
    for (const [name, filter] of FILTERS) {
      const key = `${name}: ${filter}`;
      if (!json.has(name)) {
        const r = await cli.run([...argsOf(name), '--json']);
        expect(r.exitCode, r.stderr).toBe(0);
        json.set(name, r.stdout);
      }
      const ours = await cli.run([...argsOf(name), '--jq', filter]);
      expect(ours.stderr, key).toBe('');
      expect(ours.exitCode, key).toBe(0);
      const theirs = jq ? await jq(filter, json.get(name)!) : undefined;
      if (RECORD) {
        recorded[key] = theirs ?? expect.fail('recording needs jq on the PATH');
        continue;
      }
      if (theirs !== undefined && ours.stdout !== theirs) wrong.push(`${key}\n  --jq:  ${ours.stdout}\n  jq:    ${theirs}`);
      if (ours.stdout !== recorded[key]) wrong.push(`${key}\n  --jq:     ${ours.stdout}\n  recorded: ${recorded[key]}`);
    }
    if (RECORD) writeFileSync(RECORDED, `${JSON.stringify(recorded, null, 2)}\n`);
    expect(wrong).toEqual([]);
  }, 600_000);
});

describe('--jq', () => {
  it('implies --json, and sees what --json FIELDS prints', async () => {
    const r = await cli.run(['chambers', 'list', '--per-page', '2', '--json', 'id,name', '--jq', '.[0] | keys']);
    expect(r).toMatchObject({ exitCode: 0, stdout: '["id","name"]\n', stderr: '' });
    const all = await cli.run(['chambers', 'list', '--all', '--jq', 'length']);
    expect(all).toMatchObject({ exitCode: 0, stdout: '200\n' }); // the whole list, not a page
  });

  it('prints each result on its own line: strings raw, everything else compact JSON', async () => {
    const r = await cli.run(['chambers', 'list', '--per-page', '2', '--jq', '.[0].name, (.[0] | {id}), 3, null, true, "  padded  "']);
    expect(r.exitCode).toBe(0);
    const [name, object, ...rest] = r.stdout.split('\n');
    expect(name).not.toMatch(/^"/);
    expect(object).toMatch(/^\{"id":"ch_\w+"\}$/);
    expect(rest).toEqual(['3', 'null', 'true', '  padded  ', '']);
    const multiline = await cli.run(['chambers', 'list', '--per-page', '1', '--jq', '"a\\nb"']);
    expect(multiline.stdout).toBe('a\nb\n');
  });

  it('a filter that does not compile is a usage error with jq\'s message and the position', async () => {
    const r = await cli.run(['chambers', 'list', '--jq', '.[0] | foo']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: --jq: foo/0 is not defined at <top-level>, line 1, column 8:\n  .[0] | foo\n         ^^^\n');
    const syntax = await cli.run(['chambers', 'list', '--jq', '.[0] |']);
    expect(syntax.exitCode).toBe(2);
    expect(syntax.stderr).toMatch(/^error: --jq: syntax error, unexpected end of file at <top-level>, line 1, column 6:\n/);
  });

  it('a runtime error exits 1 with jq\'s message, after the results before it; no stack', async () => {
    const r = await cli.run(['chambers', 'list', '--jq', '.[0].id, .[0].name.first']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^ch_\w+\n$/);
    expect(r.stderr).toBe('error: --jq: Cannot index string with string ("first")\n');
    // beyond what jq's WebAssembly stack holds: one line too, no stack trace
    const deep = await cli.run(['chambers', 'list', '--per-page', '1', '--jq', 'reduce range(10000) as $_ ([]; [.]) | tojson | fromjson | length']);
    expect(deep.exitCode).toBe(1);
    expect(deep.stderr).toMatch(/^error: --jq: jq stopped: .+\n$/);
  });

  it('--format csv, tsv or table with --jq is a usage error that says why', async () => {
    for (const format of ['csv', 'tsv', 'table']) {
      const r = await cli.run(['chambers', 'list', '--format', format, '--jq', '.']);
      expect(r.exitCode, format).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^error: --jq filters the JSON output, and --format ${format} asks for .+; give one`));
    }
    expect((await cli.run(['chambers', 'list', '--format', 'json', '--jq', 'length'])).stdout).toBe('20\n');
  });

  it('works on api, auth status, auth token and members import; api --include is refused', async () => {
    const api = await cli.run(['api', '/v2/chambers', '--jq', '.meta.total']);
    expect(api).toMatchObject({ exitCode: 0, stdout: '200\n', stderr: '' });
    const include = await cli.run(['api', '/v2/chambers', '--include', '--jq', '.']);
    expect(include.exitCode).toBe(2);
    expect(include.stderr).toMatch(/--include adds the status line and headers, which are not JSON/);
    const status = await cli.run(['auth', 'status', '--jq', '.logged_in']);
    expect(status).toMatchObject({ exitCode: 0, stdout: 'true\n' });
    const token = await cli.run(['auth', 'token', '--jq', '.token_type']);
    expect(token).toMatchObject({ exitCode: 0, stdout: 'Bearer\n' });
    const csv = 'name,email,membership_type\nAda Lovelace,ada@example.org,standard\n';
    const imported = await runCli(['members', 'import', chamberId, '-', '--dry-run', '--jq', '.valid'], { configDir: cli.dir, input: csv });
    expect(imported.stderr).toBe('');
    expect(imported).toMatchObject({ exitCode: 0, stdout: '1\n' });
  });

  it('is refused by a command that prints no JSON', async () => {
    const r = await cli.run(['logout', '--jq', '.']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("error: unknown option '--jq': this command prints no JSON to filter; the commands that print JSON take it (chamberctl help output)\n");
  });

  it('loads jq only when --jq is given', async () => {
    const withJq = await runRecordingLoads(['chambers', 'list', '--jq', '.[0].name'], { CHAMBERCTL_CONFIG_DIR: cli.dir });
    expect(withJq.exitCode, withJq.stderr).toBe(0);
    expect(withJq.packages.has('jq-wasm')).toBe(true);
    const plain = await runRecordingLoads(['chambers', 'list', '--json'], { CHAMBERCTL_CONFIG_DIR: cli.dir });
    expect(plain.exitCode).toBe(0);
    expect(plain.packages.has('jq-wasm')).toBe(false);
  });
});
