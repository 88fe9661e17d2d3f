import { Command, CommanderError, Option } from 'commander';
import { restyleCommanderError } from './commander-messages.js';
import { helpRequest, needsHelpTexts } from './help-topics.js';
import type { CliContext } from '../core/context.js';
import { CliError, ExitCode } from '../core/exit-codes.js';
import { terminalLine } from '../core/terminal-text.js';
import { registerApi } from '../commands/api/register.js';
import { registerAuthCommands } from '../commands/auth/register.js';
import { registerChambersCommands } from '../commands/chambers/register.js';
import { registerEventsCommands } from '../commands/events/register.js';
import { registerMembersCommands } from '../commands/members/register.js';
import { registerShellCommands } from '../commands/completion/register.js';
import { noteJsonWord } from '../commands/shared/json-fields.js';
import { endJqCapture } from '../commands/shared/jq-option.js';
import { registerServe } from '../commands/serve/register.js';
import { registerSync } from '../commands/sync/register.js';
import { registerSnapshotCommands } from '../commands/snapshot/register.js';
import { registerClientsCommands } from '../commands/clients/register.js';
import { registerAuditCommand } from '../commands/audit/register.js';

/**
 * Builds the commander tree. Each command's action imports its implementation lazily, so
 * `--help` loads no HTTP, server, prompt or table code.
 */
export function buildProgram(ctx: CliContext, version: string): Command {
  const program = new Command('chamberctl')
    .description('Manage a Chamber Directory: chambers, members and events, from the terminal or a script.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    // A subcommand's --help lists the global options it also takes, as gh's INHERITED FLAGS do.
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
      // Commander's own messages ("error: unknown option ...") are one line, in the tool's words.
      outputError: (s, write) => write(restyleCommanderError(s)),
    });
  program
    .option('--profile <name>', 'config profile to use (env CHAMBERCTL_PROFILE)')
    .option('--json', 'print machine-readable JSON on stdout')
    .addOption(new Option('--api-version <version>', 'API version to call').choices(['auto', 'v1', 'v2']))
    .option('--base-url <url>', "server base URL, overriding the profile's (another origin gets none of its credentials)")
    .option('--no-color', 'disable colour (also NO_COLOR)')
    .option('--verbose', 'print HTTP exchanges on stderr (secrets redacted)');

  program.commandsGroup('Directory:');
  registerChambersCommands(program, ctx);
  registerMembersCommands(program, ctx);
  registerEventsCommands(program, ctx);
  registerApi(program, ctx);
  program.commandsGroup('Authentication and profiles:');
  registerAuthCommands(program, ctx);
  program.commandsGroup('Local server:');
  registerServe(program, ctx);
  program.commandsGroup('Offline work:');
  registerSync(program, ctx);
  registerSnapshotCommands(program, ctx);
  program.commandsGroup('Team access:');
  registerClientsCommands(program, ctx);
  registerAuditCommand(program, ctx);
  program.commandsGroup('Shell:');
  registerShellCommands(program, ctx);
  program.helpCommand('help [command]', 'show help for a command');
  return program;
}

/** Runs the CLI and returns the exit code; never throws. */
export async function run(argv: string[], ctx: CliContext, version: string): Promise<number> {
  // bare `chamberctl` is a request for help, on stdout (`chamberctl | less`), as gh's is
  if (argv.length === 0) argv = ['--help'];
  const program = buildProgram(ctx, version);
  const verbose = argv.includes('--verbose');
  try {
    const help = helpRequest(argv, program);
    if (help && 'topic' in help) {
      const { TOPIC_TEXTS } = await import('./help-texts.js');
      ctx.stdout.write(TOPIC_TEXTS[help.topic]!);
      return ExitCode.OK;
    }
    if (help && 'unknown' in help) throw new CliError(help.unknown, ExitCode.USAGE);
    // the texts of help are loaded only when help may be shown: they are large
    if (needsHelpTexts(argv, program)) (await import('./help-texts.js')).attachHelpTexts(program);
    // `--json=id,name` (gh's --json FIELDS with =): a flag for commander, the fields aside
    const args = [...(help ? help.argv : argv)];
    const end = args.includes('--') ? args.indexOf('--') : args.length;
    const eq = args.findIndex((a, i) => i < end && a.startsWith('--json='));
    if (eq >= 0) {
      program.setOptionValue('jsonFields', args[eq]!.slice('--json='.length).split(','));
      args.splice(eq, 1, '--json');
    }
    // `--json id,name`: the word after --json, which a record command may take as its fields
    // (commands/shared/json-fields.ts decides, knowing how many operands the command takes)
    const json = args.findIndex((a, i) => i < end && a === '--json');
    const jsonWord = json >= 0 && eq < 0 && json + 1 < end ? args[json + 1] : undefined;
    if (jsonWord !== undefined && !jsonWord.startsWith('-')) noteJsonWord(program, jsonWord);
    await program.parseAsync(args, { from: 'user' });
    return ctx.exitCode ?? ExitCode.OK;
  } catch (err) {
    return reportError(err, ctx, verbose);
  } finally {
    endJqCapture(ctx); // a command that failed under --jq: its kept output is dropped
  }
}

export function reportError(err: unknown, ctx: CliContext, verbose: boolean): number {
  if (err instanceof CommanderError) {
    // help and version displays are not failures
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
      return ExitCode.OK;
    }
    return ExitCode.USAGE;
  }
  if (err instanceof CliError) {
    // a message may carry a server's words or a file's: shown inert (core/terminal-text.ts)
    ctx.stderr.write(`error: ${terminalLine(err.message)}\n`);
    for (const line of err.details) ctx.stderr.write(`  ${terminalLine(line)}\n`);
    if (verbose && err.cause instanceof Error && err.cause.stack) ctx.stderr.write(`${err.cause.stack}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  ctx.stderr.write(`error: ${terminalLine(message)}\n`);
  if (verbose && err instanceof Error && err.stack) ctx.stderr.write(`${err.stack}\n`);
  return ExitCode.FAILURE;
}
