import type { CliContext } from '../../core/context.js';
import { CliError, ExitCode, usageError } from '../../core/exit-codes.js';
import type { Credentials } from '../../client/tokens.js';
import { canPrompt } from '../shared/ask.js';

export interface CredentialFlags {
  clientId?: string;
  clientSecret?: string;
  clientSecretStdin?: boolean;
  /** false with --no-color (NO_COLOR is honoured by the prompts themselves). */
  color?: boolean;
}

const same = (text: string) => text;
/** The prompts without colour, for --no-color. */
const PLAIN_THEME = {
  prefix: { idle: '?', done: '✔' },
  style: {
    answer: same,
    message: same,
    error: (text: string) => `> ${text}`,
    defaultAnswer: (text: string) => `(${text})`,
    help: same,
    highlight: same,
    key: (text: string) => `<${text}>`,
  },
};

/**
 * The client id and secret for `login`, from (first match wins):
 * id:     --client-id, CHAMBERCTL_CLIENT_ID, a prompt (terminal only), the profile's current id;
 * secret: --client-secret, --client-secret-stdin, CHAMBERCTL_CLIENT_SECRET, a masked prompt.
 * Without a terminal a missing value is a usage error, never a prompt that waits forever.
 */
export async function gatherCredentials(
  flags: CredentialFlags,
  ctx: CliContext,
  previousClientId: string | undefined,
): Promise<Credentials> {
  if (flags.clientSecret !== undefined && flags.clientSecretStdin) {
    throw usageError('use either --client-secret or --client-secret-stdin, not both');
  }
  const interactive = canPrompt(ctx);
  let clientId = nonEmpty(flags.clientId, '--client-id') ?? nonEmpty(ctx.env.CHAMBERCTL_CLIENT_ID, 'CHAMBERCTL_CLIENT_ID');
  if (clientId === undefined && interactive) {
    clientId = await prompt(ctx, flags, 'input', 'Client id', previousClientId);
  }
  clientId ??= previousClientId;
  if (!clientId) {
    throw usageError('missing client id: pass --client-id or set CHAMBERCTL_CLIENT_ID (prompts need a terminal)');
  }

  let clientSecret = nonEmpty(flags.clientSecret, '--client-secret');
  if (clientSecret === undefined && flags.clientSecretStdin) {
    clientSecret = ctx.stdin.isTTY && interactive ? await prompt(ctx, flags, 'password', 'Client secret') : await readSecretFromStdin(ctx);
  }
  clientSecret ??= nonEmpty(ctx.env.CHAMBERCTL_CLIENT_SECRET, 'CHAMBERCTL_CLIENT_SECRET');
  if (clientSecret === undefined && interactive) clientSecret = await prompt(ctx, flags, 'password', 'Client secret');
  if (!clientSecret) {
    throw usageError(
      'missing client secret: pipe it to --client-secret-stdin or set CHAMBERCTL_CLIENT_SECRET (prompts need a terminal)',
    );
  }
  return { clientId, clientSecret };
}

function nonEmpty(value: string | undefined, what: string): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!v) throw usageError(`${what} must not be empty`);
  return v;
}

/** The secret is the whole of stdin, one line; surrounding white space is ignored. */
export async function readSecretFromStdin(ctx: CliContext): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) throw usageError('--client-secret-stdin: stdin is empty');
  if (/[\r\n]/.test(text)) throw usageError('--client-secret-stdin: stdin must hold only the secret, on one line');
  return text;
}

async function prompt(
  ctx: CliContext,
  flags: CredentialFlags,
  kind: 'input' | 'password',
  message: string,
  fallback?: string,
): Promise<string> {
  const prompts = await import('@inquirer/prompts');
  const io = { input: ctx.stdin, output: ctx.stderr };
  const theme = flags.color === false ? { theme: PLAIN_THEME } : {};
  try {
    const answer =
      kind === 'password'
        ? await prompts.password({ message, mask: '*', validate: (v) => (v.trim() ? true : 'required'), ...theme }, io)
        : await prompts.input({ message, required: true, ...(fallback ? { default: fallback } : {}), ...theme }, io);
    return answer.trim();
  } catch (err) {
    if (err instanceof Error && err.name === 'ExitPromptError') throw new CliError('login cancelled; nothing was saved', ExitCode.INTERRUPTED);
    throw err;
  }
}
