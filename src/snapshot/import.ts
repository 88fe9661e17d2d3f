import type { Readable } from 'node:stream';
import type { ChamberType, Event, Member } from '../contract/index.js';
import { chamberOf, eventOf, memberOf, rawUnlessCanonical, type ChamberRow } from '../storage/rows.js';
import { checkHeader, compareIds, parseLine, RECORD_KINDS, SnapshotError, type ParsedLine, type SnapshotCounts } from './format.js';
import { LoadConflict, type LoadRow, type SnapshotBackend, type SnapshotLoader } from '../storage/snapshot-backend.js';
import { cappedLines, LineTooLong } from './lines.js';

/** Rows per insert batch (PostgreSQL's limit of 65535 parameters allows ~5900 chambers). */
const BATCH = 2000;

export interface ImportOptions {
  /** Empty the directory first (clients and tokens stay); else ids already present are an error. */
  replace: boolean;
  /** Load only into a database without chambers or clients (serve --seed); undefined when it had some. */
  onlyIfUnused?: boolean;
}

/**
 * Loads a snapshot (docs/snapshot-format.md) from `input`, all or nothing: every line is
 * checked against the contract as it is read and inserted in batches inside one
 * transaction; references (hq_id, chamber_id) and the one-member-per-address rule are
 * checked before it commits. The first problem throws a SnapshotError naming its line and
 * rolls everything back. Memory grows with the number of chambers, not of members or events.
 */
export async function importSnapshot(backend: SnapshotBackend, input: Readable, opts: ImportOptions): Promise<SnapshotCounts | undefined> {
  try {
    return await backend.load({ replace: opts.replace, onlyIfUnused: opts.onlyIfUnused }, (loader) => new SnapshotReader(input, loader).run());
  } catch (err) {
    if (err instanceof LoadConflict) throw conflictError(err);
    throw err;
  }
}

/** A collision found by the database (during the load, or when its unique indexes are rebuilt). */
function conflictError(c: LoadConflict): SnapshotError {
  if (c.on === 'email') {
    return new SnapshotError(c.line, `member ${c.row.id}: chamber ${c.row.chamber_id} already has a member with the e-mail address ${c.row.email} (addresses compare case-insensitively)`);
  }
  return new SnapshotError(c.line, `${c.kind} ${c.row.id}: that id is already in the database (snapshot import --replace empties it first)`);
}

class SnapshotReader {
  private readonly lines: AsyncIterator<string>;
  private lineNo = 0;
  /** The chambers of the file, and those of the database looked up (undefined: not there). */
  private readonly chambers = new Map<string, ChamberType | undefined>();
  /** Chambers whose hq_id is checked once all chambers are in (a later id may be the HQ). */
  private readonly withHq: { line: number; id: string; type: ChamberType; hq_id: string | null }[] = [];
  private readonly counts: SnapshotCounts = { chambers: 0, members: 0, events: 0 };
  private chamberRows: LoadRow<ChamberRow>[] = [];
  private memberRows: LoadRow<Member>[] = [];
  private eventRows: LoadRow<Event>[] = [];

  constructor(
    input: Readable,
    private readonly loader: SnapshotLoader,
  ) {
    this.lines = cappedLines(input);
  }

  private async next(): Promise<string | undefined> {
    let r: IteratorResult<string>;
    try {
      r = await this.lines.next();
    } catch (err) {
      if (err instanceof LineTooLong) throw new SnapshotError(err.line, err.message);
      throw err;
    }
    if (r.done) return undefined;
    this.lineNo++;
    return r.value;
  }

  async run(): Promise<SnapshotCounts> {
    checkHeader(await this.next());
    let phase = 0; // index in RECORD_KINDS of the kind being read
    let lastId: string | undefined;
    for (;;) {
      const text = await this.next();
      if (text === undefined) throw new SnapshotError(this.lineNo + 1, 'the file ends without its end line (truncated?)');
      const line = this.lineNo;
      const parsed = parseLine(text, line);
      if (parsed.kind === 'end') {
        await this.flush();
        if (phase === 0) await this.checkHqs();
        const c = parsed.counts;
        if (c.chambers !== this.counts.chambers || c.members !== this.counts.members || c.events !== this.counts.events) {
          throw new SnapshotError(
            line,
            `the end line counts ${c.chambers} chambers, ${c.members} members, ${c.events} events, the file holds ${this.counts.chambers}, ${this.counts.members}, ${this.counts.events}`,
          );
        }
        if ((await this.next()) !== undefined) throw new SnapshotError(this.lineNo, 'a line after the end line');
        return this.counts;
      }
      const kind = RECORD_KINDS.indexOf(parsed.kind);
      if (kind < phase) throw new SnapshotError(line, `a ${parsed.kind} after the ${RECORD_KINDS[phase]}s (chambers come first, then members, then events)`);
      if (kind > phase) {
        await this.flush();
        if (phase === 0) await this.checkHqs();
        phase = kind;
        lastId = undefined;
      }
      const id = parsed.record.id;
      if (lastId !== undefined && compareIds(id, lastId) <= 0) {
        throw new SnapshotError(line, `${parsed.kind} ${id}: ${id === lastId ? 'the same id as the line before' : 'out of order'} (records are ordered by id, each id once)`);
      }
      lastId = id;
      const pending = this.add(parsed, line);
      if (pending) await pending;
    }
  }

  /**
   * Adds a record to the batch. Synchronous for the usual record (its chamber already
   * known): a promise only when it must look a chamber up or flush a full batch, so a
   * million lines do not cost a million awaits.
   */
  private add(p: Exclude<ParsedLine, { kind: 'end' }>, line: number): Promise<void> | undefined {
    if (p.kind === 'chamber') {
      const c = p.record;
      this.chambers.set(c.id, c.type);
      if (c.hq_id !== null || c.type === 'subsidiary') this.withHq.push({ line, id: c.id, type: c.type, hq_id: c.hq_id });
      const canonical = chamberOf(c);
      const { address, ...rest } = canonical;
      this.chamberRows.push({ line, row: { ...rest, ...address } as ChamberRow, raw: rawUnlessCanonical(c, canonical) });
      this.counts.chambers++;
      return this.chamberRows.length >= BATCH ? this.flush() : undefined;
    }
    const chamberId = p.record.chamber_id;
    if (this.chambers.has(chamberId)) return this.addChild(p, line, this.chambers.get(chamberId));
    return this.chamberType(chamberId).then((type) => this.addChild(p, line, type));
  }

  private addChild(p: Extract<ParsedLine, { kind: 'member' | 'event' }>, line: number, chamberType: ChamberType | undefined): Promise<void> | undefined {
    if (chamberType === undefined) throw new SnapshotError(line, `${p.kind} ${p.record.id}: chamber_id ${p.record.chamber_id} names no chamber`);
    if (p.kind === 'member') {
      const canonical = memberOf(p.record);
      this.memberRows.push({ line, row: canonical, raw: rawUnlessCanonical(p.record, canonical) });
      this.counts.members++;
    } else {
      const canonical = eventOf(p.record);
      this.eventRows.push({ line, row: canonical, raw: rawUnlessCanonical(p.record, canonical) });
      this.counts.events++;
    }
    return this.memberRows.length + this.eventRows.length >= BATCH ? this.flush() : undefined;
  }

  /** A chamber of the file, else of the database (when it had chambers); cached either way. */
  private async chamberType(id: string): Promise<ChamberType | undefined> {
    if (this.chambers.has(id)) return this.chambers.get(id);
    let type: ChamberType | undefined;
    if (this.loader.hadChambers) type = (await this.loader.chamberTypes([id])).get(id);
    this.chambers.set(id, type);
    return type;
  }

  private async checkHqs(): Promise<void> {
    for (const c of this.withHq) {
      if (c.hq_id === null) throw new SnapshotError(c.line, `chamber ${c.id}: a subsidiary needs an hq_id`);
      const hqType = await this.chamberType(c.hq_id);
      if (hqType === undefined) throw new SnapshotError(c.line, `chamber ${c.id}: hq_id ${c.hq_id} names no chamber`);
      if (c.type === 'subsidiary' && hqType !== 'hq') throw new SnapshotError(c.line, `chamber ${c.id}: hq_id ${c.hq_id} names a subsidiary, not an hq`);
    }
    this.withHq.length = 0;
  }

  private async flush(): Promise<void> {
    if (this.chamberRows.length) await this.loader.insertChambers(this.chamberRows);
    if (this.memberRows.length) await this.loader.insertMembers(this.memberRows);
    if (this.eventRows.length) await this.loader.insertEvents(this.eventRows);
    this.chamberRows = [];
    this.memberRows = [];
    this.eventRows = [];
  }
}
