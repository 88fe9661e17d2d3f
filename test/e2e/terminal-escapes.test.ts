// Text from a file or a server never drives the terminal: C0 and C1 controls are shown in
// `cat -v`'s notation (src/core/terminal-text.ts) in problem rows, error lines and tables;
// --json stays exact JSON, with C1 written as \u escapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loggedIn, type LoggedIn } from '../commands/logged-in.js';
import { api, csvFile, type Api } from '../import/e2e-helpers.js';
import { runOnPty } from '../helpers/pty.js';

let server: TestServer;
let cli: LoggedIn;
let directory: Api;

beforeAll(async () => {
  server = await startTestServer({ seed: 'none' });
  cli = await loggedIn(server);
  directory = await api(server);
});
afterAll(async () => {
  await cli?.cleanup();
  await server?.close();
});

const OSC52 = '\u001b]52;c;ZXZpbA==\u0007';
const CLEAR = '\u001b[2J';
const CSI_C1 = '\u009b2J';
/** Any C0 control but tab and newline, DEL, or a C1 control. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('control characters from files and servers', () => {
  it("members import: a problem row's text is shown inert", async () => {
    const ch = await directory.newChamber();
    const file = await csvFile(
      cli.dir,
      'esc.csv',
      `name,email,membership_type\nab"c${OSC52}${CLEAR},x@y.co,standard\nfine,bad-${CSI_C1}@,standard\n`,
    );
    const r = await cli.run(['members', 'import', ch, file, '--dry-run']);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stderr).toContain('line 3 (invalid)');
  });

  it("a server's error message is shown inert", async () => {
    const r = await cli.run(['chambers', 'get', `ch_${CSI_C1}${OSC52}`]);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stderr).toContain('M-^[2J');
    // --verbose shows the exchange, the server's body included, inert too
    const verbose = await cli.run(['chambers', 'get', `ch_${CSI_C1}${OSC52}`, '--verbose']);
    expect(verbose.stderr).toContain('was not found');
    expect(verbose.stderr).not.toMatch(RAW_CONTROL);
  });

  it('tables show C0 and C1 controls in caret notation; --json is exact JSON without a raw C1', async () => {
    await directory.newChamber(`Evil${OSC52}${CSI_C1}`);
    const table = await cli.run(['chambers', 'list', '--format', 'table']);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).not.toMatch(RAW_CONTROL);
    expect(table.stdout).toContain('Evil^[]52;c;ZXZpbA==^GM-^[2J');
    const json = await cli.run(['chambers', 'list', '--json']);
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    expect(json.stdout).toContain('\\u009b2J');
    expect((JSON.parse(json.stdout) as Array<{ name: string }>).map((c) => c.name)).toContain(`Evil${OSC52}${CSI_C1}`);
    // TSV and CSV are exact in a pipe (data), and inert on a terminal
    const piped = await cli.run(['chambers', 'list', '--format', 'tsv']);
    expect(piped.stdout).toContain(`Evil${OSC52}${CSI_C1}`);
    for (const format of ['tsv', 'csv']) {
      const shown = await runOnPty(['chambers', 'list', '--format', format], { configDir: cli.dir, steps: [], columns: 120 });
      expect(shown.exitCode, shown.output).toBe(0);
      expect(shown.output).toContain('Evil^[]52;c;ZXZpbA==^GM-^[2J');
      expect(shown.output.replace(/\r\n/g, '\n')).not.toMatch(RAW_CONTROL);
    }
  });
});
