// chambers create and members add ask for what is missing on a terminal (a pseudo-terminal
// here), with select lists and the contract's checks; without one, a usage error as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { KEY, runOnPty, screenOf } from '../helpers/pty.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const CLIENT = { id: 'pty-client', secret: 'PtySecret0123456789' };
let dir: string;
let cfg: string;
let server: ServeProcess;

beforeAll(async () => {
  dir = await makeTempDir('chamberctl-prompts-');
  cfg = `${dir}/cfg`;
  server = await startServeProcess(['--port', '0', '--db', ':memory:', '--client-id', CLIENT.id, '--client-secret', CLIENT.secret, '--quiet'], {
    CHAMBERCTL_CONFIG_DIR: `${dir}/cfg-serve`,
  });
  const r = await runCli(['login', '--base-url', server.baseUrl, '--client-id', CLIENT.id, '--client-secret-stdin'], { configDir: cfg, input: CLIENT.secret });
  expect(r.exitCode, r.stderr).toBe(0);
});
afterAll(async () => {
  await server?.stop();
  await removeTempDir(dir);
});

describe('prompts for missing options', () => {
  it('members add asks for name, e-mail (checked as typed), phone and the membership type from a list', async () => {
    const r = await runOnPty(['members', 'add', 'ch_ms2fLiZry7iy3IuE', '--json'], {
      configDir: cfg,
      steps: [
        { when: /Name/, send: `Pat Prompt${KEY.enter}` },
        { when: /E-mail/, send: `not-an-address${KEY.enter}` },
        { when: /valid e-mail address/, send: `${'\u007f'.repeat(14)}pat@example.org${KEY.enter}` },
        { when: /Phone/, send: KEY.enter },
        { when: /Membership type/, send: `${KEY.down}${KEY.enter}` },
      ],
    });
    expect(r.unanswered).toBe(0);
    expect(r.exitCode, r.output).toBe(0);
    const member = JSON.parse(r.output.slice(r.output.indexOf('{')));
    expect(member).toMatchObject({ name: 'Pat Prompt', email: 'pat@example.org', phone: null, membership_type: 'premium' });
  });

  it('chambers create offers the HQs for a subsidiary', async () => {
    const r = await runOnPty(['chambers', 'create', '--type', 'subsidiary', '--name', 'Prompted Office', '--street', '1 Rue', '--city', 'Lyon', '--json'], {
      configDir: cfg,
      steps: [
        { when: /HQ of the subsidiary/, send: KEY.enter }, // the first HQ by name
        { when: /Country/, send: `fr${KEY.enter}` },
        { when: /Postal code/, send: `69001${KEY.enter}` },
      ],
    });
    expect(r.unanswered).toBe(0);
    expect(r.exitCode, r.output).toBe(0);
    const chamber = JSON.parse(r.output.slice(r.output.indexOf('{')));
    expect(chamber).toMatchObject({ name: 'Prompted Office', type: 'subsidiary', address: { country: 'FR', postal_code: '69001' } });
    expect(chamber.hq_id).toMatch(/^ch_/);
  });

  it('Ctrl-C at a prompt exits 130, as Ctrl-C elsewhere does, and sends nothing', async () => {
    const before = await runCli(['members', 'list', 'ch_ms2fLiZry7iy3IuE', '--all', '--json'], { configDir: cfg });
    const r = await runOnPty(['members', 'add', 'ch_ms2fLiZry7iy3IuE', '--name', 'Cancelled Carl'], {
      configDir: cfg,
      steps: [{ when: /E-mail/, send: '\u0003' }],
    });
    expect(r.unanswered).toBe(0);
    expect(r.exitCode, r.output).toBe(130);
    expect(r.output).toContain('error: cancelled; nothing was sent');
    const after = await runCli(['members', 'list', 'ch_ms2fLiZry7iy3IuE', '--all', '--json'], { configDir: cfg });
    expect(JSON.parse(after.stdout)).toHaveLength(JSON.parse(before.stdout).length);
  });

  it('Ctrl-C at a select list clears the list, as an answer folds it into one line', async () => {
    const args = ['members', 'add', 'ch_ms2fLiZry7iy3IuE', '--name', 'Listed Lea', '--email', 'lea@example.org'];
    const answered = await runOnPty([...args, '--json'], { configDir: cfg, steps: [{ when: /Membership type/, send: KEY.enter }] });
    expect(answered.exitCode, answered.output).toBe(0);
    const shown = screenOf(answered.raw).join('\n');
    expect(shown).toMatch(/Membership type standard\n/);
    expect(shown).not.toMatch(/premium/); // the other choices went with the list

    const r = await runOnPty(args, { configDir: cfg, steps: [{ when: /premium/, send: '\u0003' }] });
    expect(r.unanswered).toBe(0);
    expect(r.exitCode, r.output).toBe(130);
    expect(r.output).toMatch(/premium/); // the list was drawn...
    const screen = screenOf(r.raw).filter((l) => l !== '');
    expect(screen).toEqual(['error: cancelled; nothing was sent']); // ...and is gone
  });

  it('Ctrl-C at the login prompt exits 130 too, and saves nothing', async () => {
    const r = await runOnPty(['login', '--profile', 'cancelled', '--base-url', server.baseUrl, '--client-id', 'x'], {
      configDir: cfg,
      steps: [{ when: /secret/i, send: '\u0003' }],
    });
    expect(r.exitCode, r.output).toBe(130);
    expect(r.output).toContain('error: login cancelled; nothing was saved');
    expect((await runCli(['profiles', 'list'], { configDir: cfg })).stdout).not.toContain('cancelled');
  });

  it('on a terminal too, `config set prompt disabled` turns the prompts off', async () => {
    expect((await runCli(['config', 'set', 'prompt', 'disabled'], { configDir: cfg })).exitCode).toBe(0);
    try {
      const r = await runOnPty(['members', 'add', 'ch_ms2fLiZry7iy3IuE', '--name', 'X'], { configDir: cfg, steps: [] });
      expect(r.exitCode).toBe(2);
      expect(r.output).toContain("error: required options '--email <email>' and '--membership-type <type>' not specified");
    } finally {
      await runCli(['config', 'set', 'prompt', 'enabled'], { configDir: cfg });
    }
  });

  it('without a terminal a missing option is the usage error, at once', async () => {
    const r = await runCli(['members', 'add', 'ch_ms2fLiZry7iy3IuE', '--name', 'X'], { configDir: cfg });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("error: required options '--email <email>' and '--membership-type <type>' not specified\n");
    const c = await runCli(['chambers', 'create', '--name', 'X', '--type', 'hq'], { configDir: cfg });
    expect(c.exitCode).toBe(2);
    expect(c.stderr).toBe("error: required options '--street <street>', '--city <city>' and '--country <cc>' not specified\n");
  });

  it('without a terminal, one run names every missing option and what is wrong with the ones given', async () => {
    const r = await runCli(['chambers', 'create', '--type', 'subsidiary', '--country', 'XX'], { configDir: cfg });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      "error: required options '--name <name>', '--street <street>' and '--city <city>' not specified\n" +
        '  also:\n    address.country (--country): must be an ISO 3166-1 alpha-2 country code, e.g. DE\n',
    );
  });

  it('on a terminal, a bad option given is refused before any prompt (exit 5), not after the answers', async () => {
    const c = await runOnPty(['chambers', 'create', '--type', 'subsidiary', '--country', 'XX'], { configDir: cfg, steps: [] });
    expect(c.exitCode, c.output).toBe(5);
    expect(c.output).not.toMatch(/Name|HQ of the subsidiary/);
    expect(c.output).toContain('address.country (--country): must be an ISO 3166-1 alpha-2 country code');
    const m = await runOnPty(['members', 'add', 'ch_ms2fLiZry7iy3IuE', '--email', 'nope'], { configDir: cfg, steps: [] });
    expect(m.exitCode, m.output).toBe(5);
    expect(m.output).not.toMatch(/Name/);
    expect(m.output).toContain('email (--email): must be a valid e-mail address');
  });
});
