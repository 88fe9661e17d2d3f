import { describe, expect, it } from 'vitest';
import type { ListPage } from '../../src/contract/index.js';
import type { Chamber } from '../../src/contract/index.js';
import { chamberView } from '../../src/output/columns.js';
import { ListWriter, pageFooter } from '../../src/output/list-writer.js';
import { printList, type FetchPage } from '../../src/output/paged-list.js';
import { ESC, chamber, collector, io, outputFor, pageOf } from './fakes.js';

const chambers = (n: number) => Array.from({ length: n }, (_, i) => chamber(i + 1));

/** A fetcher over `items` that records the pages asked for. */
function fetcher(items: Chamber[]) {
  const asked: Array<[number, number | undefined]> = [];
  const fetch: FetchPage<Chamber> = async (page, perPage) => {
    asked.push([page, perPage]);
    return pageOf(items, { page: String(page), ...(perPage ? { per_page: String(perPage) } : {}) });
  };
  return { fetch, asked };
}

describe('JSON lists', () => {
  it('print one page as a JSON array of the items, nothing else', async () => {
    const t = io();
    const items = chambers(25);
    await printList(fetcher(items).fetch, { page: 2, all: false }, chamberView, await outputFor(t, { json: true }));
    expect(JSON.parse(t.stdout.text())).toEqual(items.slice(20, 25));
    expect(t.stderr.text()).toBe('');
  });

  it('print [] for an empty list', async () => {
    const t = io();
    await printList(fetcher([]).fetch, { page: 1, all: false }, chamberView, await outputFor(t, { json: true }));
    expect(t.stdout.text()).toBe('[]\n');
  });

  it('--all streams one valid array: the concatenation of the pages, written page by page', async () => {
    const t = io();
    const items = chambers(250);
    const f = fetcher(items);
    await printList(f.fetch, { page: 1, all: true }, chamberView, await outputFor(t, { json: true }));
    expect(f.asked).toEqual([
      [1, 100],
      [2, 100],
      [3, 100],
    ]);
    expect(JSON.parse(t.stdout.text())).toEqual(items);
    // written incrementally: the opening bracket and first page before the last page
    expect(t.stdout.chunks.length).toBeGreaterThanOrEqual(4);
    expect(t.stdout.chunks[0]!.startsWith('[\n')).toBe(true);
    expect(t.stdout.chunks.at(-1)).toBe('\n]\n');
  });

  it('--all writes each page before asking for the next', async () => {
    const t = io();
    const items = chambers(30);
    const seenBeforeFetch: number[] = [];
    const f = fetcher(items);
    const fetch: FetchPage<Chamber> = async (page, perPage) => {
      seenBeforeFetch.push(t.stdout.text().split('\n').filter((l) => l.startsWith('{')).length);
      return f.fetch(page, perPage);
    };
    await printList(fetch, { page: 1, all: true, perPage: 10 }, chamberView, await outputFor(t, { json: true }));
    expect(seenBeforeFetch).toEqual([0, 10, 20]);
  });

  it('--all stops at an empty page even if total says otherwise', async () => {
    const t = io();
    let calls = 0;
    const fetch: FetchPage<Chamber> = async (page) => {
      calls++;
      const data = page === 1 ? chambers(2) : [];
      return { data, meta: { current_page: page, per_page: 100, total: 1000 } } satisfies ListPage<Chamber>;
    };
    await printList(fetch, { page: 1, all: true }, chamberView, await outputFor(t, { json: true }));
    expect(calls).toBe(2);
    expect(JSON.parse(t.stdout.text())).toHaveLength(2);
  });

  it('--all uses the per_page in effect (clamped by the server) for the stop rule', async () => {
    const t = io();
    const f = fetcher(chambers(150));
    await printList(f.fetch, { page: 1, all: true, perPage: 500 }, chamberView, await outputFor(t, { json: true }));
    expect(f.asked.map(([p]) => p)).toEqual([1, 2]);
    expect(JSON.parse(t.stdout.text())).toHaveLength(150);
  });

  it('is indented on a terminal and one item per line in a pipe', async () => {
    const piped = io();
    await printList(fetcher(chambers(3)).fetch, { page: 1, all: false }, chamberView, await outputFor(piped, { json: true }));
    expect(piped.stdout.text().split('\n')).toHaveLength(6); // [ + 3 items + ] + final newline
    const tty = io({ tty: true });
    await printList(fetcher(chambers(3)).fetch, { page: 1, all: false }, chamberView, await outputFor(tty, { json: true }));
    // highlighted on a terminal (issue: JSON as jq shows it); the same JSON without the colours
    const plain = tty.stdout.text().replace(new RegExp(`${ESC}\\[[0-9;]*m`, 'g'), '');
    expect(tty.stdout.text()).toContain(ESC);
    expect(plain).toContain('\n    "id": ');
    expect(JSON.parse(plain)).toEqual(JSON.parse(piped.stdout.text()));
    const uncoloured = io({ tty: true });
    await printList(fetcher(chambers(3)).fetch, { page: 1, all: false }, chamberView, await outputFor(uncoloured, { json: true, color: false }));
    expect(uncoloured.stdout.text()).toBe(plain);
  });

  it('keeps memory flat: waits for the stream to drain instead of buffering', async () => {
    const stdout = collector({ highWaterMark: 1024, slow: true });
    const stderr = collector();
    const output = await outputFor({ stdout, stderr, ctx: { stdout, stderr, env: {} } }, { json: true });
    let maxBuffered = 0;
    const f = fetcher(chambers(1000));
    const fetch: FetchPage<Chamber> = async (page, perPage) => {
      maxBuffered = Math.max(maxBuffered, stdout.writableLength);
      return f.fetch(page, perPage);
    };
    await printList(fetch, { page: 1, all: true }, chamberView, output);
    await new Promise((r) => stdout.end(r));
    expect(JSON.parse(stdout.text())).toHaveLength(1000);
    // before each fetch the previous page has drained below the high-water mark
    expect(maxBuffered).toBeLessThanOrEqual(1024);
  });

  it('stops walking when the reader of stdout goes away (EPIPE)', async () => {
    const t = io();
    const output = await outputFor(t, { json: true });
    const f = fetcher(chambers(500));
    const fetch: FetchPage<Chamber> = async (page, perPage) => {
      if (page === 2) t.stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      return f.fetch(page, perPage);
    };
    await printList(fetch, { page: 1, all: true }, chamberView, output);
    expect(f.asked).toHaveLength(2);
  });
});

describe('TSV lists', () => {
  it('print one row per item, no header, in the documented column order', async () => {
    const t = io();
    const c = chamber(1, { name: 'Tab\there', address: { street: 'Line\nbreak', city: 'Köln', postal_code: null, country: 'DE' } });
    await printList(fetcher([c, chamber(2)]).fetch, { page: 1, all: false }, chamberView, await outputFor(t));
    const lines = t.stdout.text().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]!.split('\t')).toEqual([
      c.id,
      'Tab\\there',
      'subsidiary',
      'inactive',
      'ch_0000000000000000',
      'Line\\nbreak',
      '',
      'Köln',
      'DE',
      c.created_at,
    ]);
    expect(lines[1]!.split('\t')[4]).toBe(''); // hq_id null
  });

  it('never colour, even when stderr is a terminal', async () => {
    const t = io({ errTty: true });
    await printList(fetcher(chambers(3)).fetch, { page: 1, all: false }, chamberView, await outputFor(t));
    expect(t.stdout.text()).not.toContain(ESC);
  });

  it('--all prints every row once', async () => {
    const t = io();
    const items = chambers(205);
    await printList(fetcher(items).fetch, { page: 1, all: true }, chamberView, await outputFor(t));
    expect(t.stdout.text().trimEnd().split('\n').map((l) => l.split('\t')[0])).toEqual(items.map((c) => c.id));
  });
});

describe('tables on a terminal', () => {
  it('colour statuses and headers, and put the footer on stderr', async () => {
    const t = io({ tty: true, columns: 120 });
    await printList(fetcher(chambers(45)).fetch, { page: 1, all: false }, chamberView, await outputFor(t));
    expect(t.stdout.text()).toContain(`${ESC}32mactive`);
    expect(t.stderr.text()).toContain('page 1 of 3 (45 chambers) — use --page 2 or --all');
    expect(t.stdout.text()).not.toContain('page 1 of 3');
  });

  it('have no colour with NO_COLOR or --no-color', async () => {
    for (const [env, color] of [[{ NO_COLOR: '1' }, true], [{}, false]] as const) {
      const t = io({ tty: true, columns: 120, env });
      await printList(fetcher(chambers(5)).fetch, { page: 1, all: false }, chamberView, await outputFor(t, { color }));
      expect(t.stdout.text()).not.toContain(ESC);
      expect(t.stderr.text()).not.toContain(ESC);
      expect(t.stdout.text()).toContain('active');
    }
  });

  it('--all prints the header once and keeps the columns aligned across pages', async () => {
    const t = io({ tty: true, columns: 200 });
    await printList(fetcher(chambers(250)).fetch, { page: 1, all: true }, chamberView, await outputFor(t, { color: false }));
    const lines = t.stdout.text().trimEnd().split('\n');
    expect(lines).toHaveLength(251);
    expect(lines.filter((l) => l.startsWith('ID '))).toHaveLength(1);
    const statusAt = lines[0]!.indexOf('STATUS');
    expect(lines[150]!.slice(statusAt).split(' ')[0]).toMatch(/^(active|inactive|pending)$/);
    expect(t.stderr.text()).toContain('250 chambers');
  });

  it('say so when the list is empty', async () => {
    const t = io({ tty: true });
    await printList(fetcher([]).fetch, { page: 1, all: false }, chamberView, await outputFor(t));
    expect(t.stdout.text()).toBe('');
    expect(t.stderr.text()).toContain('no chambers');
  });
});

describe('page footer', () => {
  const view = chamberView;
  it('names the page, the count and how to go on', () => {
    expect(pageFooter(view, { current_page: 1, per_page: 20, total: 234 })).toBe('page 1 of 12 (234 chambers) — use --page 2 or --all');
    expect(pageFooter(view, { current_page: 12, per_page: 20, total: 234 })).toBe('page 12 of 12 (234 chambers)');
    expect(pageFooter(view, { current_page: 1, per_page: 20, total: 1 })).toBe('page 1 of 1 (1 chamber)');
    expect(pageFooter(view, { current_page: 9, per_page: 20, total: 30 })).toBe('page 9 is past the end: 2 pages (30 chambers)');
    expect(pageFooter(view, { current_page: 1, per_page: 20, total: 0 })).toBe('no chambers');
  });

  it('is only written when stderr is a terminal', async () => {
    const t = io({ tty: true, errTty: false });
    const w = new ListWriter(chamberView, await outputFor(t));
    await w.page(chambers(1));
    await printList(fetcher(chambers(30)).fetch, { page: 1, all: false }, chamberView, await outputFor(t));
    expect(t.stderr.text()).toBe('');
  });
});
