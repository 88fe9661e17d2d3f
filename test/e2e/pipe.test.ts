// A reader that stops early (`chamberctl --help | head -1`) closes the pipe: chamberctl ends
// quietly with exit 0, as Unix tools do, never with an EPIPE stack trace.
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, makeTempDir, removeTempDir } from '../helpers/cli.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(() => removeTempDir(dir));

describe('a closed pipe', () => {
  it('`--help | head -1` prints the first line, nothing on stderr, exit 0 (10 runs)', async () => {
    for (let i = 0; i < 10; i++) {
      const r = await execa('bash', ['-c', `"${process.execPath}" "${BIN}" --help | head -1; echo "status=\${PIPESTATUS[0]}" >&2`], {
        env: { ...cleanEnv(), CHAMBERCTL_CONFIG_DIR: dir },
        extendEnv: false,
        reject: false,
      });
      expect(r.stdout).toMatch(/^Usage: chamberctl/);
      expect(r.stderr).toBe('status=0');
    }
  });
});
