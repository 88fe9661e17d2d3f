import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/fake-context.js';
import { CHOICES } from '../../src/commands/shared/choices.js';
import { buildProgram } from '../../src/cli/program.js';
import { ChamberStatus, ChamberType, EventStatus, MemberStatus, MembershipType } from '../../src/contract/index.js';
import { openApiDocument } from '../../src/server/openapi/document.js';
import { SCOPES } from '../../src/contract/auth.js';
import { fakeContext } from '../helpers/fake-context.js';

// a config directory that does not exist: a test reaching the session would fail with 3
const cli = (...argv: string[]) => runInProcess(argv, '/nonexistent/chamberctl-register-test');

describe('command registration', () => {
  // The CLI's choices, the server's schemas and (test/server/openapi.test.ts) the published
  // documents must name the same values: a value added to one and not the others fails here.
  const program = buildProgram(fakeContext(), '0.0.0-test');
  const choicesOf = (path: string, flag: string) => {
    let cmd = program;
    for (const name of path.split(' ')) cmd = cmd.commands.find((c) => c.name() === name)!;
    return cmd.options.find((o) => o.long === flag)?.argChoices;
  };

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const doc = openApiDocument('v2', 'http://127.0.0.1:8080') as any;
  const op = (path: string, method: string) => doc.paths[path][method];
  const param = (path: string, name: string) => op(path, 'get').parameters.find((p: { name: string }) => p.name === name).schema;
  const body = (name: string) => doc.components.schemas[name].properties;

  it.each([
    ['chambers list', '--type', CHOICES.chamberType, param('/chambers', 'filter[type]').enum],
    ['chambers list', '--status', CHOICES.chamberStatus, param('/chambers', 'filter[status]').enum],
    ['chambers list', '--sort', CHOICES.chamberSort, param('/chambers', 'sort').enum],
    ['chambers get', '--include', CHOICES.chamberInclude, param('/chambers/{id}', 'include').items.enum],
    ['chambers create', '--type', CHOICES.chamberType, body('ChamberCreate').type.enum],
    ['members list', '--status', CHOICES.memberStatus, param('/chambers/{chamber_id}/members', 'filter[status]').enum],
    ['members list', '--sort', CHOICES.memberSort, param('/chambers/{chamber_id}/members', 'sort').enum],
    ['members add', '--membership-type', CHOICES.membershipType, body('MemberCreate').membership_type.enum],
    ['events list', '--status', CHOICES.eventStatus, param('/chambers/{chamber_id}/events', 'filter[status]').enum],
  ])('%s %s offers the values of the published document', (_path, _flag, choices, published) => {
    expect([...choices]).toEqual(published);
  });

  it.each([
    ['chambers list', '--type', CHOICES.chamberType, ChamberType.options],
    ['chambers create', '--type', CHOICES.chamberType, ChamberType.options],
    ['chambers list', '--status', CHOICES.chamberStatus, ChamberStatus.options],
    ['chambers list', '--sort', CHOICES.chamberSort, ['name', '-name', 'created_at', '-created_at']],
    ['members list', '--status', CHOICES.memberStatus, MemberStatus.options],
    ['members list', '--sort', CHOICES.memberSort, ['name', '-name', 'joined_at', '-joined_at']],
    ['members add', '--membership-type', CHOICES.membershipType, MembershipType.options],
    ['events list', '--status', CHOICES.eventStatus, EventStatus.options],
    ['clients add', '--scope', CHOICES.clientScope, SCOPES],
  ])('%s %s offers exactly the values the server takes', (path, flag, choices, server) => {
    expect(choicesOf(path, flag)).toEqual([...choices]);
    expect([...choices]).toEqual([...server]);
  });

  it.each([
    ['chambers', 'list'],
    ['chambers', 'get'],
    ['chambers', 'create'],
    ['members', 'list'],
    ['members', 'add'],
    ['events', 'list'],
    ['clients', 'add'],
    ['clients', 'list'],
    ['clients', 'edit'],
    ['clients', 'rotate'],
    ['clients', 'revoke'],
  ])('%s %s has a description and examples in --help', async (group, name) => {
    const r = await cli(group, name, '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: chamberctl ${group} ${name}`);
    expect(r.stdout).toMatch(/\nExamples:\n {2}\$ chamberctl /);
  });

  it.each([
    [['chambers', 'list', '--type', 'bogus'], '--type must be one of: hq, subsidiary, not "bogus"'],
    [['chambers', 'list', '--page', 'abc'], '--page must be a positive integer'],
    [['chambers', 'list', '--page', '2', '--all'], 'cannot be used with'],
    [['chambers', 'list', '--bogus'], "unknown option '--bogus'"],
    [['chambers', 'create', '--name', 'x'], 'required option'],
    [['members', 'add', 'ch_1', '--name', 'A', '--email', 'a@example.org', '--membership-type', 'gold'], '--membership-type must be one of: standard'],
    [['events', 'list', 'ch_1', '--from', 'yesterday'], '--from must be an ISO 8601 date'],
    [['members', 'list'], "missing required argument 'chamber-id'"],
  ])('%j is a usage error (exit 2) with one line', async (argv, message) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trimEnd().split('\n')[0]).toMatch(/^error: /);
    expect(r.stdout).toBe('');
  });

  it('a bad e-mail is rejected data (exit 5) before any session is opened', async () => {
    const r = await cli('members', 'add', 'ch_1', '--name', 'A', '--email', 'nope', '--membership-type', 'standard');
    expect(r.code).toBe(5);
    expect(r.stderr).toBe('error: the member is not valid; nothing was sent\n  email (--email): must be a valid e-mail address\n');
  });

  it('global options are accepted after the subcommand too', async () => {
    const r = await cli('chambers', 'list', '--json', '--no-color', '--api-version', 'v2', '--page', 'x');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--page must be a positive integer');
  });
});
