import { describe, expect, it } from 'vitest';
import { chamberView, eventView, memberView } from '../../src/output/columns.js';
import { displayWidth } from '../../src/output/width.js';
import { plainStyle } from '../../src/output/style.js';
import { planTable, renderTable } from '../../src/output/table.js';
import { chamber, event, member } from './fakes.js';

const longName = (i: number) =>
  chamber(i, { name: `The Very Long Name of Chamber ${i} of Industry and Commerce`, address: { street: 's', city: 'Saint-Germain-en-Laye', postal_code: null, country: 'FR' } });

async function render(width: number, items = [longName(1), longName(2), chamber(3)]) {
  const plan = planTable(chamberView.columns, items, width);
  return { plan, text: await renderTable(plan, items, plainStyle, true) };
}

describe('terminal tables', () => {
  it('fit the terminal width on every line', async () => {
    for (const width of [60, 80, 100, 120, 200]) {
      const { text } = await render(width);
      for (const line of text.trimEnd().split('\n')) expect(displayWidth(line), `${width}: ${line}`).toBeLessThanOrEqual(width);
    }
  });

  it('show everything in full when there is room', async () => {
    const { text, plan } = await render(300);
    expect(plan.columns.map((c) => c.header)).toEqual(chamberView.columns.map((c) => c.header));
    expect(text).toContain('The Very Long Name of Chamber 1 of Industry and Commerce');
    expect(text).toContain('Saint-Germain-en-Laye, FR');
    expect(text).not.toContain('…');
  });

  it('give the room to names and the city: optional columns join only while names keep 36 columns', async () => {
    const { text, plan } = await render(100);
    expect(plan.columns.map((c) => c.header)).toEqual(['ID', 'NAME', 'TYPE', 'STATUS', 'LOCATION']);
    expect(plan.widths[1]).toBeGreaterThanOrEqual(36);
    expect(text).toContain('Berlin, DE');
    expect(text).toMatch(/Saint-\S*…\S*, FR/); // the city cut in the middle: the country stays
  });

  it('show more columns as the terminal widens, the most useful first (LOCATION, CREATED, then HQ)', async () => {
    const headers = async (width: number) => (await render(width)).plan.columns.map((c) => c.header);
    expect(await headers(80)).toEqual(['ID', 'NAME', 'TYPE', 'STATUS']);
    expect(await headers(100)).toEqual(['ID', 'NAME', 'TYPE', 'STATUS', 'LOCATION']);
    expect(await headers(120)).toEqual(['ID', 'NAME', 'TYPE', 'STATUS', 'LOCATION', 'CREATED']);
    expect(await headers(130)).toEqual(['ID', 'NAME', 'TYPE', 'STATUS', 'HQ', 'LOCATION', 'CREATED']);
  });

  it("an event's start stands for its span on a narrow terminal, so titles are not cut", async () => {
    const events = [event(1, { title: 'Antwerp Digitalisation Forum', ends_at: '2026-03-07T12:00:00.000Z' }), event(2)];
    const plan = planTable(eventView.columns, events, 80);
    const text = await renderTable(plan, events, plainStyle, true);
    expect(plan.columns.map((c) => c.header)).toEqual(['ID', 'TITLE', 'STATUS', 'STARTS (UTC)']);
    expect(text).toContain('Antwerp Digitalisation Forum');
    expect(text).toContain('2026-03-05 18:00');
    const wide = planTable(eventView.columns, events, 120);
    expect(wide.columns.map((c) => c.header)).toEqual(['ID', 'TITLE', 'STATUS', 'WHEN (UTC)', 'LOCATION']);
  });

  it('cut names last, in the middle (so that names sharing a long start stay apart), and never ids', async () => {
    const { text } = await render(60);
    expect(text).toContain(longName(1).id);
    const rows = text.split('\n').slice(1, 3);
    expect(rows[0]).toContain('The Very…Commerce');
  });

  it('keep the end of subsidiary names that share their HQ\'s name', async () => {
    const subs = ['Ghent', 'Bruges', 'Leuven'].map((city, i) => chamber(10 + i, { name: `Antwerp Business Chamber – ${city} Branch`, type: 'subsidiary', hq_id: 'ch_ms2fLiZry7iy3IuE' }));
    const plan = planTable(chamberView.columns, subs, 70);
    const text = await renderTable(plan, subs, plainStyle, true);
    for (const city of ['Ghent', 'Bruges', 'Leuven']) expect(text).toContain(`${city} Branch`);
  });

  it('with --wide (no width limit) show every column uncut', async () => {
    const { plan, text } = await render(Number.POSITIVE_INFINITY);
    expect(plan.columns).toHaveLength(chamberView.columns.length);
    expect(text).not.toContain('…');
  });

  it('measure flags and joined emoji as the terminal shows them', () => {
    expect(displayWidth('🇧🇪')).toBe(2);
    expect(displayWidth('👩‍👩‍👧')).toBe(2);
    expect(displayWidth('Zürich')).toBe(6);
    expect(displayWidth('東京')).toBe(4);
  });

  it('show a subsidiary\'s HQ id in full or not at all, at every width', async () => {
    const sub = { ...longName(4), type: 'subsidiary' as const, hq_id: 'ch_ms2fLiZry7iy3IuE' };
    for (let width = 60; width <= 160; width += 5) {
      const { text, plan } = await render(width, [sub, longName(1)]);
      if (plan.columns.some((c) => c.header === 'HQ')) expect(text, `width ${width}`).toContain(sub.hq_id);
      expect(text, `width ${width}`).not.toMatch(/ch_ms2f\S*…/);
    }
  });

  it('leave out optional columns (HQ first) on a narrow terminal', async () => {
    const { plan } = await render(110);
    expect(plan.columns.map((c) => c.header)).toEqual(['ID', 'NAME', 'TYPE', 'STATUS', 'LOCATION', 'CREATED']); // HQ, then CREATED
  });

  it('show the location as "city, country" and absent values as -', async () => {
    const { text } = await render(300, [chamber(2)]);
    expect(text).toContain('Berlin, DE');
    const row = text.split('\n')[1]!;
    expect(row.split(/ {2,}/)).toContain('-'); // no HQ for an hq chamber
  });

  it('have one header line and no borders or trailing blanks', async () => {
    const { text } = await render(200);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+TYPE\s+STATUS/);
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line).not.toMatch(/[│─┌└]/);
      expect(line).toBe(line.trimEnd());
    }
  });

  it('keep multi-line values on one line', async () => {
    const items = [chamber(1, { name: 'Line one\nLine two' })];
    const text = await renderTable(planTable(chamberView.columns, items, 200), items, plainStyle, true);
    expect(text.trimEnd().split('\n')).toHaveLength(2);
    expect(text).toContain('Line one Line two');
  });

  it('render members and events tables', async () => {
    const members = [member(1), member(2)];
    const mt = await renderTable(planTable(memberView.columns, members, 150), members, plainStyle, true);
    expect(mt).toContain('person1@example.org');
    expect(mt).toContain('2026-02-03');
    const events = [event(1), event(2, { ends_at: '2026-03-06T01:00:00Z', location: null })];
    const et = await renderTable(planTable(eventView.columns, events, 150), events, plainStyle, true);
    expect(et).toContain('2026-03-05 18:00–20:00');
    expect(et).toContain('2026-03-05 18:00 – 03-06 01:00');
  });
});

describe('JSON on a terminal', () => {
  it('is highlighted when colour is on, and stays the same JSON once the colours are taken out', async () => {
    const { createStyle } = await import('../../src/output/style.js');
    const style = await createStyle(1);
    const text = JSON.stringify({ id: 'ch_1', n: -1.5e3, ok: true, none: null, nested: { 'k"q': 'v:"x' } }, null, 2);
    const coloured = style.json(text);
    expect(coloured).not.toBe(text);
    expect(coloured).toContain('\u001b[');
    // eslint-disable-next-line no-control-regex
    expect(JSON.parse(coloured.replace(/\u001b\[[0-9;]*m/g, ''))).toEqual(JSON.parse(text));
    expect(plainStyle.json(text)).toBe(text); // no colour: untouched
  });
});
