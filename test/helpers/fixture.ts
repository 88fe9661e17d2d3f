import type { Chamber, Event, Member } from '../../src/contract/index.js';
import type { ChamberWrite, MemberWrite } from '../../src/storage/store.js';

/** Writes rows with chosen times and statuses: the SQLite Storage, or PgStorage. */
export interface FixtureWriter {
  createChamber(w: ChamberWrite & { idem?: undefined }): Chamber | Promise<Chamber>;
  addMember(w: MemberWrite & { idem?: undefined }): Member | 'duplicate' | 'no-chamber' | Promise<Member | 'duplicate' | 'no-chamber'>;
  insertEvent(event: Event): void | Promise<void>;
}

const STATUSES = ['active', 'inactive', 'pending'] as const;
const NAMES = ['Bremen', 'aachen', 'Zürich', 'Lyon', 'Osaka', 'Bremen', 'Lima', 'oslo'];

/**
 * Controlled data written straight through the storage module: names and times repeat on
 * purpose, so sorts need the id tie-break, and every type and status is present.
 */
export async function buildFixture(storage: FixtureWriter, opts: { hqs?: number; subsidiaries?: number; members?: number } = {}) {
  const hqs: Chamber[] = [];
  const chambers: Chamber[] = [];
  const base = Date.parse('2025-01-01T00:00:00Z');
  const at = (i: number) => new Date(base + Math.floor(i / 3) * 60_000); // three per minute
  const hqCount = opts.hqs ?? 8;
  const subCount = opts.subsidiaries ?? 49;
  for (let i = 0; i < hqCount + subCount; i++) {
    const isHq = i < hqCount;
    const c = await storage.createChamber({
      input: {
        name: `${NAMES[i % NAMES.length]} Chamber ${isHq ? 'HQ' : 'Office'}`,
        type: isHq ? 'hq' : 'subsidiary',
        hq_id: isHq ? null : hqs[i % hqs.length]!.id,
        address: { street: `${i} Main Street`, city: NAMES[i % NAMES.length]!, postal_code: null, country: 'DE' },
      },
      now: at(i),
      status: STATUSES[i % 3],
      audit: null,
    });
    if (isHq) hqs.push(c);
    chambers.push(c);
  }
  const big = hqs[0]!;
  const members: Member[] = [];
  for (let i = 0; i < (opts.members ?? 45); i++) {
    const m = await storage.addMember({
      chamberId: big.id,
      input: { name: `${NAMES[i % NAMES.length]} Person`, email: `person${i}@example.org`, phone: null, membership_type: 'standard' },
      now: at(i),
      status: STATUSES[i % 3],
      audit: null,
    });
    if (typeof m === 'string') throw new Error(`fixture member ${i}: ${m}`);
    members.push(m);
  }
  return { hqs, chambers, big, members };
}

/** JS reference order for a sort (mirrors the SQL: NOCASE for name, then id in the same direction). */
export function referenceSort<T extends { id: string }>(items: T[], key: (t: T) => string, desc: boolean, nocase = false): T[] {
  const norm = (s: string) => (nocase ? s.replace(/[A-Z]/g, (c) => c.toLowerCase()) : s);
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...items].sort((a, b) => cmp(norm(key(a)), norm(key(b))) || cmp(a.id, b.id));
  return desc ? sorted.reverse() : sorted;
}
