import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, run } from '../../src/cli/program.js';
import { fakeContext } from '../helpers/fake-context.js';

// Every visible command, however deep, explains itself: a one-line description in the
// command list, and at least one example in its --help.

const ctx = () => fakeContext({ env: { CHAMBERCTL_CONFIG_DIR: '/nonexistent/chamberctl-help-test' } });

/** Visible commands below `cmd` (hidden ones and commander's implicit `help` left out), as paths. */
function visiblePaths(cmd: Command, prefix: string[] = []): string[][] {
  return cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => cmd.commands.includes(c))
    .flatMap((c) => [[...prefix, c.name()], ...visiblePaths(c, [...prefix, c.name()])]);
}

/** An "Example(s):" heading, then a "$ ..." line that runs chamberctl. */
const EXAMPLE = /Examples?:\n(?:.*\n)*?\s+\$ .*\bchamberctl\b/;

const program = buildProgram(ctx(), '0.0.0-test');
const paths = visiblePaths(program);
const commandAt = (path: string[]) => path.reduce<Command>((c, name) => c.commands.find((x) => x.name() === name)!, program);

describe('help', () => {
  it('finds the whole tree, and no hidden command', () => {
    const names = paths.map((p) => p.join(' '));
    expect(names).toEqual(expect.arrayContaining(['chambers list', 'members import', 'profiles remove', 'completion']));
    expect(names).not.toContain('__complete');
  });

  it.each(paths.map((p) => [p.join(' '), p] as const))('chamberctl %s has a one-line description and an example', async (_name, path) => {
    const description = commandAt(path).description();
    expect(description, 'no description').not.toBe('');
    expect(description, 'the description is more than one line').not.toContain('\n');
    const c = ctx();
    expect(await run([...path, '--help'], c, '0.0.0-test')).toBe(0);
    expect(c.out()).toContain(`Usage: chamberctl ${path.join(' ')}`);
    expect(c.out(), `chamberctl ${path.join(' ')} --help shows no example`).toMatch(EXAMPLE);
  });

  it('a subcommand lists the global options it also takes', async () => {
    const c = ctx();
    expect(await run(['members', 'list', '--help'], c, '0.0.0-test')).toBe(0);
    const global = c.out().split('Global Options:\n')[1] ?? '';
    for (const option of ['--profile <name>', '--json', '--api-version <version>', '--base-url <url>', '--no-color', '--verbose']) {
      expect(global, option).toContain(option);
    }
  });

  it('the program itself has examples', async () => {
    const c = ctx();
    expect(await run(['--help'], c, '0.0.0-test')).toBe(0);
    expect(c.out(), 'chamberctl --help shows no example').toMatch(EXAMPLE);
  });
});
