import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { ARGUMENT_RULES, OPTION_RULES } from '../../src/completion/value-sources.js';
import { fakeContext } from '../helpers/fake-context.js';

// The table of value sources must follow the command tree: a renamed command, option or
// argument makes its rule dead, and a rule for something that has .choices() would be ignored.

const program = buildProgram(fakeContext(), '0.0.0-test');

function commandAt(path: string): Command | undefined {
  let cmd: Command | undefined = program;
  for (const name of path.split(' ').filter(Boolean)) cmd = cmd?.commands.find((c) => c.name() === name);
  return cmd;
}

describe('completion value sources', () => {
  it.each(OPTION_RULES.map((r) => [r.command || '(program)', r.flag, r] as const))('%s %s is a real option without choices', (_c, _f, rule) => {
    const cmd = commandAt(rule.command);
    expect(cmd, `no command "${rule.command}"`).toBeDefined();
    const option = cmd!.options.find((o) => o.long === rule.flag);
    expect(option, `"${rule.command}" has no option ${rule.flag}`).toBeDefined();
    expect(option!.required || option!.optional, `${rule.flag} takes no value`).toBe(true);
    expect(option!.argChoices).toBeUndefined();
  });

  it.each(ARGUMENT_RULES.map((r) => [r.command, r.argument, r] as const))('%s <%s> is a real argument without choices', (_c, _a, rule) => {
    const cmd = commandAt(rule.command);
    expect(cmd, `no command "${rule.command}"`).toBeDefined();
    const argument = cmd!.registeredArguments.find((a) => a.name() === rule.argument);
    expect(argument, `"${rule.command}" has no argument <${rule.argument}>`).toBeDefined();
    expect(argument!.argChoices).toBeUndefined();
  });
});
