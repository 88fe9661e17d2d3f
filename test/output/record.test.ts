import { describe, expect, it } from 'vitest';
import { INCLUDED_ROWS, formatAddress, printChamber, printMember } from '../../src/output/record.js';
import { ESC, chamber, event, io, member, outputFor } from './fakes.js';

describe('a chamber on a terminal', () => {
  it('is a label/value view with a readable address and time', async () => {
    const t = io({ tty: true, columns: 100 });
    await printChamber(chamber(2), await outputFor(t, { color: false }));
    const text = t.stdout.text();
    expect(text).toMatch(/^ID\s+ch_0000000000000002$/m);
    expect(text).toMatch(/^Address\s+2 Main Street, 10115 Berlin, DE$/m);
    expect(text).toMatch(/^Created\s+2026-01-03 09:30 UTC$/m);
    expect(text).toMatch(/^HQ\s+-$/m);
  });

  it('shows included members and events as small tables, the first few of each', async () => {
    const t = io({ tty: true, columns: 120 });
    const members = Array.from({ length: 15 }, (_, i) => member(i));
    const c = { ...chamber(2), members, events: [event(1)] };
    await printChamber(c, await outputFor(t, { color: false }));
    const text = t.stdout.text();
    expect(text).toContain('Members (15)');
    expect(text).toContain('Events (1)');
    expect(text).toContain(member(INCLUDED_ROWS - 1).id);
    expect(text).not.toContain(member(INCLUDED_ROWS).id);
    expect(text).toContain(`5 more of the 15 embedded; every one: chamberctl members list ${c.id} --all`);
    expect(text).toContain('2026-03-05 18:00–20:00');
  });

  it('colours the status only with colour on', async () => {
    const on = io({ tty: true });
    await printChamber(chamber(3), await outputFor(on));
    expect(on.stdout.text()).toContain(`${ESC}32mactive`);
    const off = io({ tty: true, env: { NO_COLOR: 'yes' } });
    await printChamber(chamber(3), await outputFor(off));
    expect(off.stdout.text()).not.toContain(ESC);
  });
});

describe('a chamber in a pipe', () => {
  it('is field<TAB>value lines with the API field names, in a fixed order', async () => {
    const t = io();
    await printChamber(chamber(1), await outputFor(t));
    const rows = t.stdout.text().trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows.map((r) => r[0])).toEqual([
      'id', 'name', 'type', 'status', 'hq_id', 'street', 'postal_code', 'city', 'country', 'created_at',
    ]);
    expect(Object.fromEntries(rows)).toMatchObject({ id: chamber(1).id, hq_id: 'ch_0000000000000000', created_at: chamber(1).created_at });
  });

  it('adds a member/event line per included item', async () => {
    const t = io();
    await printChamber({ ...chamber(2), members: [member(1), member(2)], events: [event(1)] }, await outputFor(t));
    const lines = t.stdout.text().trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('member\t'))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('event\t'))).toEqual([
      `event\t${event(1).id}\tEvent 1\tupcoming\t2026-03-05T18:00:00.000Z\t2026-03-05T20:00:00.000Z\tTown Hall`,
    ]);
  });
});

describe('JSON objects', () => {
  it('are exactly the object, included relations and all', async () => {
    const t = io();
    const c = { ...chamber(2), members: [member(1)], events: [] };
    await printChamber(c, await outputFor(t, { json: true }));
    expect(JSON.parse(t.stdout.text())).toEqual(c);
    expect(t.stderr.text()).toBe('');
  });

  it('members too', async () => {
    const t = io({ tty: true });
    await printMember(member(1), await outputFor(t, { json: true, color: false }));
    expect(JSON.parse(t.stdout.text())).toEqual(member(1));
    expect(t.stdout.text()).not.toContain(ESC); // --no-color: plain
  });
});

describe('a member', () => {
  it('on a terminal shows the phone, or - when there is none', async () => {
    const t = io({ tty: true });
    await printMember(member(1), await outputFor(t, { color: false }));
    expect(t.stdout.text()).toMatch(/^Phone\s+-$/m);
    expect(t.stdout.text()).toMatch(/^E-mail\s+person1@example\.org$/m);
  });

  it('in a pipe gives field<TAB>value lines', async () => {
    const t = io();
    await printMember(member(2), await outputFor(t));
    expect(t.stdout.text()).toContain('phone\t+49 30 123456\n');
    expect(t.stdout.text()).toContain('membership_type\tstandard\n');
  });
});

it('formats an address without a postal code', () => {
  expect(formatAddress(chamber(1, { address: { street: 'Rue 1', city: 'Paris', postal_code: null, country: 'FR' } }))).toBe('Rue 1, Paris, FR');
});
