// The committed man pages render without a warning: in mandoc's lint, in groff with every
// warning on, and through man itself at 80 columns (what `man chamberctl-members-import`
// shows after `npm install -g`). Needs mandoc, groff and man, which npm test installs first
// (scripts/test-tools.sh).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MAN = fileURLToPath(new URL('../../man/', import.meta.url));
const pages = readdirSync(MAN).filter((f) => /\.\d$/.test(f));

function run(tool: string, args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(tool, args, { encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${tool} is not installed (npm test installs it: scripts/test-tools.sh suite)`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the man pages', () => {
  it('are there: chamberctl(1) and more', () => {
    expect(pages).toContain('chamberctl.1');
    expect(pages.length).toBeGreaterThan(30);
  });

  it.each(pages)('%s: mandoc -T lint finds nothing', (page) => {
    const r = run('mandoc', ['-T', 'lint', join(MAN, page)]);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.each(pages)('%s: groff -ww -man -z warns of nothing', (page) => {
    const r = run('groff', ['-ww', '-man', '-z', join(MAN, page)]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.each(pages)('%s: MANWIDTH=80 man -l renders it, lines within 80 columns but for examples', (page) => {
    const r = run('man', ['-l', join(MAN, page)], { MANWIDTH: '80', MAN_KEEP_FORMATTING: '', PAGER: 'cat', MANPAGER: 'cat' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^NAME\n/m);
    // what is too wide is only ever a line of a block kept as written (an example)
    const wide = r.stdout.split('\n').filter((l) => [...l].length > 80);
    for (const line of wide) expect(line, 'a filled line wider than 80 columns').toMatch(/^ {11}/);
  });

  it('mandoc reports what is wrong with a bad page (the check can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chamberctl-man-'));
    try {
      writeFileSync(join(dir, 'bad.1'), '.TH X 1\n.SH NAME\n.PP\nx \\- y\n'); // no date, a paragraph right after the heading
      const r = run('mandoc', ['-T', 'lint', join(dir, 'bad.1')]);
      expect(r.stdout + r.stderr).toMatch(/WARNING/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
