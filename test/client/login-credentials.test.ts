import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import { gatherCredentials } from '../../src/commands/auth/credentials.js';
import { fakeContext } from '../helpers/fake-context.js';

// Where `login` takes the client id and secret from; the prompts run on fake terminals.

const usage = async (p: Promise<unknown>) => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(CliError);
  expect((err as CliError).exitCode).toBe(ExitCode.USAGE);
  return (err as CliError).message;
};

/** A context whose stdin and stderr claim to be terminals. */
function terminalContext(env: Record<string, string> = {}) {
  const ctx = fakeContext({ env });
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
  const stderr = ctx.stderr as PassThrough & { isTTY?: boolean };
  stderr.isTTY = true;
  // like process.stderr, which pipe() never ends (inquirer pipes its output and ends the pipe)
  stderr.end = () => stderr;
  ctx.stdin = stdin;
  /** Waits until `prompt` is on the screen (stderr), then types `answer` and Enter. */
  const answer = async (prompt: string, text: string) => {
    const seen = () => ctx.err().split(prompt).length - 1;
    const before = seen();
    for (let i = 0; i < 200 && seen() === before; i++) await new Promise((r) => setTimeout(r, 10));
    stdin.write(`${text}\r`);
  };
  return { ctx, answer };
}

describe('gatherCredentials', () => {
  it('prefers flags over the environment', async () => {
    const ctx = fakeContext({ env: { CHAMBERCTL_CLIENT_ID: 'env-id', CHAMBERCTL_CLIENT_SECRET: 'env-secret' } });
    expect(await gatherCredentials({ clientId: 'flag-id', clientSecret: 'flag-secret' }, ctx, undefined)).toEqual({
      clientId: 'flag-id',
      clientSecret: 'flag-secret',
    });
    expect(await gatherCredentials({}, ctx, 'old')).toEqual({ clientId: 'env-id', clientSecret: 'env-secret' });
  });

  it('reads the secret from stdin, trimmed, one line only', async () => {
    expect(await gatherCredentials({ clientId: 'a', clientSecretStdin: true }, fakeContext({ stdin: '  s3cret\n' }), undefined))
      .toEqual({ clientId: 'a', clientSecret: 's3cret' });
    expect(await usage(gatherCredentials({ clientId: 'a', clientSecretStdin: true }, fakeContext({ stdin: '' }), undefined)))
      .toBe('--client-secret-stdin: stdin is empty');
    expect(await usage(gatherCredentials({ clientId: 'a', clientSecretStdin: true }, fakeContext({ stdin: 'a\nb\n' }), undefined)))
      .toContain('one line');
  });

  it('keeps the saved client id when none is given (re-login after logout)', async () => {
    const ctx = fakeContext({ env: { CHAMBERCTL_CLIENT_SECRET: 's' } });
    expect(await gatherCredentials({}, ctx, 'saved-id')).toEqual({ clientId: 'saved-id', clientSecret: 's' });
  });

  it('without a terminal: usage errors, never a prompt', async () => {
    const ctx = fakeContext();
    expect(await usage(gatherCredentials({ clientSecret: 's' }, ctx, undefined))).toContain('missing client id');
    expect(await usage(gatherCredentials({ clientId: 'a' }, ctx, undefined))).toContain('missing client secret');
    expect(await usage(gatherCredentials({ clientId: ' ', clientSecret: 's' }, ctx, undefined))).toBe('--client-id must not be empty');
    expect(await usage(gatherCredentials({ clientId: 'a', clientSecret: 's', clientSecretStdin: true }, ctx, undefined)))
      .toContain('not both');
    expect(ctx.err()).toBe('');
  });

  it('on a terminal: prompts on stderr, the secret masked', async () => {
    const { ctx, answer } = terminalContext();
    const pending = gatherCredentials({}, ctx, undefined);
    await answer('Client id', 'my-client');
    await answer('Client secret', 'TopSecret42');
    expect(await pending).toEqual({ clientId: 'my-client', clientSecret: 'TopSecret42' });
    const shown = ctx.err();
    expect(shown).toContain('Client secret');
    expect(shown).toContain('*'.repeat('TopSecret42'.length));
    expect(shown).not.toContain('TopSecret42');
    expect(ctx.out()).toBe('');
  });

  it('on a terminal with --no-color: prompts without escape sequences for colour', async () => {
    const { ctx, answer } = terminalContext({ CHAMBERCTL_CLIENT_SECRET: 's' });
    const pending = gatherCredentials({ color: false }, ctx, undefined);
    await answer('Client id', 'x');
    await pending;
    // eslint-disable-next-line no-control-regex
    expect(ctx.err()).not.toMatch(/\u001b\[\d+(;\d+)*m/);
  });

  it('on a terminal: offers the saved client id as the default', async () => {
    const { ctx, answer } = terminalContext({ CHAMBERCTL_CLIENT_SECRET: 's' });
    const pending = gatherCredentials({}, ctx, 'saved-id');
    await answer('Client id', '');
    expect(await pending).toEqual({ clientId: 'saved-id', clientSecret: 's' });
    expect(ctx.err()).toContain('saved-id');
  });
});
