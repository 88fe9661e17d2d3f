// scripts/audit-bundle.mjs keeps npm audit's advisories of what ships: the packages esbuild
// bundled into dist/ (dist/meta.json), not the tooling that never leaves the repository.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assertBuilt } from '../helpers/cli.js';
// @ts-expect-error: a plain script, without types
import { bundledFolders, splitReport } from '../../scripts/audit-bundle.mjs';

const meta = () => JSON.parse(readFileSync('dist/meta.json', 'utf8')) as { inputs: Record<string, unknown> };

describe('audit of the bundle', () => {
  it("names the bundle's packages by their node_modules folder, nested ones included, and no tooling", () => {
    assertBuilt();
    const folders = bundledFolders(meta()) as Set<string>;
    for (const shipped of ['node_modules/fastify', 'node_modules/undici', 'node_modules/zod', 'node_modules/@inquirer/prompts', 'node_modules/pg']) {
      expect(folders.has(shipped), shipped).toBe(true);
    }
    for (const tooling of ['node_modules/vitest', 'node_modules/esbuild', 'node_modules/@redocly/cli', 'node_modules/autocannon']) {
      expect(folders.has(tooling), tooling).toBe(false);
    }
  });

  it('splits an npm audit report into what ships and what does not', () => {
    const folders = new Set(['node_modules/fastify', 'node_modules/fastify/node_modules/light-my-request']);
    const report = {
      auditReportVersion: 2,
      vulnerabilities: {
        'light-my-request': {
          severity: 'high',
          range: '<6.9.0',
          nodes: ['node_modules/fastify/node_modules/light-my-request'],
          via: [{ title: 'a made-up advisory', url: 'https://github.com/advisories/GHSA-xxxx' }],
        },
        fastify: { severity: 'high', range: '5.0.0 - 5.12.8', nodes: ['node_modules/fastify'], via: ['light-my-request'] },
        vitest: { severity: 'critical', range: '*', nodes: ['node_modules/vitest'], via: [{ title: 't', url: 'u' }] },
      },
    };
    const { shipped, tooling } = splitReport(report, folders);
    expect(tooling).toBe(1);
    expect(shipped).toEqual([
      { name: 'light-my-request', severity: 'high', range: '<6.9.0', why: 'a made-up advisory (https://github.com/advisories/GHSA-xxxx)' },
      { name: 'fastify', severity: 'high', range: '5.0.0 - 5.12.8', why: 'through light-my-request' },
    ]);
  });
});
