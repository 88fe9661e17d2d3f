// GET /docs in a real browser (Debian's chromium, headless, driven by playwright-core): the
// reference of each version loads with no console error and no request leaving the server,
// lists every operation of the document, and "try it" gets a token and lists chambers.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiVersion } from '../../src/contract/index.js';
import { openApiDocument } from '../../src/server/openapi/document.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CHROMIUM = '/usr/bin/chromium';

let srv: TestServer;
let browser: Browser;
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is not installed (npm test installs it: scripts/test-tools.sh suite)`);
  srv = await startTestServer({ seed: 'demo' });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

/** A page of its own, with every console error and every request that is not to the server. */
async function open(path: string): Promise<{ page: Page; errors: string[]; away: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  const away: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (new URL(r.url()).origin !== srv.baseUrl) away.push(r.url());
  });
  await page.goto(`${srv.baseUrl}${path}`);
  await page.waitForSelector('.opblock-summary-operation-id');
  return { page, errors, away };
}

const operationIds = (version: ApiVersion) =>
  Object.values<Record<string, { operationId?: string }>>(openApiDocument(version, srv.baseUrl).paths as never)
    .flatMap((item) => Object.values(item).map((op) => op.operationId))
    .filter(Boolean)
    .sort();

describe('GET /docs in a browser', () => {
  it.each(['v1', 'v2'] as const)("%s: lists every operation, and 'try it' gets a token and lists chambers", async (version) => {
    const { page, errors, away } = await open(`/docs/${version}`);
    try {
      const shown = await page.$$eval('.opblock-summary-operation-id', (els) => els.map((e) => e.textContent ?? ''));
      expect(shown.sort()).toEqual(operationIds(version));
      expect(await page.textContent('.info .title')).toContain(`Chamber Directory Service ${version}`);

      // Authorize: the OAuth 2.0 client credentials flow of the document, against this server
      await page.click('.auth-wrapper button.authorize');
      await page.fill('#client_id_clientCredentials', srv.clientId);
      await page.fill('#client_secret_clientCredentials', srv.clientSecret);
      const token = page.waitForResponse((r) => r.url() === `${srv.baseUrl}/${version}/auth/token`);
      await page.click('.modal-ux button[aria-label="Apply given OAuth2 credentials"]');
      expect((await token).status()).toBe(200);
      await page.waitForSelector('.modal-ux button[aria-label="Remove authorization"]');
      await page.click('.modal-ux button.close-modal');

      // Try it out: GET /chambers with that token
      const op = '#operations-Chambers-listChambers';
      await page.click(`${op} .opblock-summary-control`);
      await page.click(`${op} button.try-out__btn`);
      const list = page.waitForResponse((r) => r.url().startsWith(`${srv.baseUrl}/${version}/chambers?`));
      await page.click(`${op} button.execute`);
      expect((await list).status()).toBe(200);
      await page.waitForSelector(`${op} .live-responses-table tbody .response-col_status`);
      expect((await page.textContent(`${op} .live-responses-table tbody .response-col_status`))?.trim()).toBe('200');
      expect(await page.textContent(`${op} .live-responses-table tbody .response-col_description`)).toContain('Antwerp Business Chamber');

      expect(errors).toEqual([]);
      expect(away).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('/docs is the reference of v2, with a link to v1', async () => {
    const { page, errors, away } = await open('/docs');
    try {
      expect(await page.textContent('.info .title')).toContain('Chamber Directory Service v2');
      expect(await page.getAttribute('nav.versions a[href="/docs/v1"]', 'href')).toBe('/docs/v1');
      expect(errors).toEqual([]);
      expect(away).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
