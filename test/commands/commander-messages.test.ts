import { describe, expect, it } from 'vitest';
import { isCloseMatch, restyleCommanderError } from '../../src/cli/commander-messages.js';
import { run } from '../../src/cli/program.js';
import { fakeContext } from '../helpers/fake-context.js';

describe("commander's messages in the tool's words", () => {
  it('a value outside the choices reads like every other bad value', async () => {
    const ctx = fakeContext({ env: { CHAMBERCTL_CONFIG_DIR: '/nonexistent/chamberctl-test' } });
    expect(await run(['chambers', 'list', '--type', 'bogus'], ctx, '0.0.0-test')).toBe(2);
    expect(ctx.err()).toBe('error: --type must be one of: hq, subsidiary, not "bogus"\n');
  });

  it('suggests only close matches', () => {
    expect(isCloseMatch('--formt', '--format')).toBe(true); // a typo
    expect(isCloseMatch('--sotr', '--sort')).toBe(true); // two letters swapped
    expect(isCloseMatch('--form', '--format')).toBe(true); // the start of it
    expect(isCloseMatch('--format', '--sort')).toBe(false);
    expect(isCloseMatch('lst', 'list')).toBe(true);
    expect(restyleCommanderError("error: unknown option '--colour'\n(Did you mean --sort?)\n")).toBe("error: unknown option '--colour'\n");
    expect(restyleCommanderError("error: unknown option '--formt'\n(Did you mean --format?)\n")).toBe("error: unknown option '--formt'\n(Did you mean --format?)\n");
  });
});
