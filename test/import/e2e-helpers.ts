// Shared by the import end-to-end tests: chambers made through the API, the members the
// server holds, and CSV files in a temporary directory.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Member } from '../../src/contract/index.js';
import type { ImportSummary } from '../../src/import/summary.js';
import { call } from '../helpers/http.js';
import { getToken, type TestServer } from '../helpers/server.js';

export interface Api {
  newChamber(name?: string): Promise<string>;
  members(chamberId: string): Promise<Member[]>;
  count(chamberId: string): Promise<number>;
}

export async function api(server: TestServer): Promise<Api> {
  const token = await getToken(server.baseUrl);
  let n = 0;
  return {
    async newChamber(name = `Import Test ${++n}`) {
      const r = await call(server.baseUrl, 'POST', '/v2/chambers', {
        token,
        body: { name, type: 'hq', address: { street: '1 Main St', city: 'Berlin', country: 'DE' } },
      });
      if (r.status !== 201) throw new Error(`creating a chamber failed: ${r.status} ${r.text}`);
      return r.body.id as string;
    },
    async members(chamberId) {
      const all: Member[] = [];
      for (let page = 1; ; page++) {
        const r = await call(server.baseUrl, 'GET', `/v2/chambers/${chamberId}/members?per_page=100&page=${page}&sort=name`, { token });
        all.push(...(r.body.data as Member[]));
        if (all.length >= r.body.meta.total) return all;
      }
    },
    async count(chamberId) {
      const r = await call(server.baseUrl, 'GET', `/v2/chambers/${chamberId}/members?per_page=1`, { token });
      return r.body.meta.total as number;
    },
  };
}

export async function csvFile(dir: string, name: string, content: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

/** `count` valid rows, `Person 0`… with unique e-mails under `tag`. */
export function validRows(count: number, tag: string, start = 0): string {
  let out = '';
  for (let i = start; i < start + count; i++) out += `Person ${i},${tag}.${i}@example.org,,standard\n`;
  return out;
}

export const HEADER = 'name,email,phone,membership_type\n';

export function summaryOf(stdout: string): ImportSummary {
  return JSON.parse(stdout) as ImportSummary;
}
