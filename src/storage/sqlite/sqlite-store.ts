import { seedDemo } from '../seed/index.js';
import type { Chamber, Member } from '../../contract/index.js';
import type { AuditFilter, ChamberFilter, ChamberWrite, DirectoryStore, EventFilter, MemberFilter, MemberWrite, Scope } from '../store.js';
import { Storage } from './storage.js';
import { WriteBatcher } from './write-batch.js';

/**
 * The storage interface on SQLite, the embedded default. Reads are the synchronous
 * statements of Storage, answered at once; writes go through group commit (WriteBatcher:
 * the writes of one event-loop turn share one transaction).
 */
export class SqliteStore implements DirectoryStore {
  readonly backend = 'sqlite';
  readonly #writes: WriteBatcher;

  constructor(
    readonly storage: Storage,
    readonly location: string,
  ) {
    // a writer elsewhere (a `sync pull` into this copy) holds the lock for seconds at a time
    this.#writes = new WriteBatcher((fn) => storage.transaction(fn, 'immediate'));
  }

  /** Timed WAL checkpoints (Storage.checkpointEvery), for a server that runs for long. */
  checkpointEvery(ms: number): void {
    this.storage.checkpointEvery(ms);
  }

  async clientAuth(id: string) {
    return this.storage.clientAuth(id);
  }
  async clientCount() {
    return this.storage.clientCount();
  }
  async saveToken(hash: Buffer, clientId: string, version: string, expiresAtMs: number, scope: Scope) {
    return this.storage.saveToken(hash, clientId, version, expiresAtMs, scope);
  }
  async findToken(hash: Buffer) {
    return this.storage.findToken(hash);
  }
  async purgeExpiredTokens(nowMs: number) {
    return this.storage.purgeExpiredTokens(nowMs);
  }
  // through the group commit, as the other writes of a request
  noteClientUse(id: string, now: Date) {
    return this.#writes.run(() => this.storage.noteClientUse(id, now));
  }
  async addClient(id: string, secretHash: string, scope: Scope, now: Date, operator?: string | null) {
    return this.storage.addClient(id, secretHash, scope, now, operator);
  }
  async listClients() {
    return this.storage.listClients();
  }
  async rotateClient(id: string, secretHash: string, now: Date, graceMs: number, operator?: string | null) {
    return this.storage.rotateClient(id, secretHash, now, graceMs, operator);
  }
  async revokeClient(id: string, now: Date, operator?: string | null) {
    return this.storage.revokeClient(id, now, operator);
  }
  async setClientScope(id: string, scope: Scope, now: Date, operator?: string | null) {
    return this.storage.setClientScope(id, scope, now, operator);
  }
  async listAudit(f: AuditFilter) {
    return this.storage.listAudit(f);
  }
  async findAnswer(clientId: string, key: string, nowMs: number) {
    return this.storage.findAnswer(clientId, key, nowMs);
  }
  async purgeExpiredAnswers(nowMs: number) {
    return this.storage.purgeExpiredAnswers(nowMs);
  }

  async listChambers(f: ChamberFilter) {
    return this.storage.listChambers(f);
  }
  async getChamber(id: string) {
    return this.storage.getChamber(id);
  }
  async chamberType(id: string) {
    return this.storage.chamberType(id);
  }
  createChamber(w: ChamberWrite & { idem?: undefined }): Promise<Chamber>;
  createChamber(w: ChamberWrite): Promise<Chamber | 'replay'>;
  createChamber(w: ChamberWrite) {
    return this.#writes.run(() => this.storage.createChamber(w));
  }
  async listMembers(chamberId: string, f: MemberFilter) {
    return this.storage.listMembers(chamberId, f);
  }
  addMember(w: MemberWrite & { idem?: undefined }): Promise<Member | 'duplicate' | 'no-chamber'>;
  addMember(w: MemberWrite): Promise<Member | 'duplicate' | 'replay' | 'no-chamber'>;
  addMember(w: MemberWrite) {
    return this.#writes.run(() => this.storage.addMember(w));
  }
  async getMember(chamberId: string, memberId: string) {
    return this.storage.getMember(chamberId, memberId);
  }
  async listEvents(chamberId: string, f: EventFilter) {
    return this.storage.listEvents(chamberId, f);
  }

  async isUnused() {
    return this.storage.isUnused();
  }
  async pendingChanges() {
    return this.storage.pendingChanges();
  }
  async seedDemo(opts: { size: 'standard' | 'large'; now: Date; seed?: number }) {
    const { chambers, members, events } = seedDemo(this.storage, opts);
    return { chambers, members, events };
  }
  async ping() {
    return this.storage.db.open;
  }
  async close() {
    this.storage.close();
  }
}
