/**
 * The product carries no test code: the demo sites' adapters (and so their hosts) are only in the
 * test build. `grep -r "blog.localhost" dist/` must find nothing; this checks every demo host in
 * every file of the product build, and that the test build, built from the same sources, does
 * have them (so the check would catch a leak).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { testSiteAdapters } from '../content/sites/adapters/testSites.ts';
import { DIST, TEST_DIST } from './support/launchTether.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function filesMentioning(dir: string, needle: string): string[] {
  return filesUnder(dir)
    .filter((file) => readFileSync(file).includes(needle))
    .map((file) => relative(dir, file));
}

const DEMO_HOSTS = testSiteAdapters.flatMap((adapter) => adapter.hosts);

test('the product build contains no host of the demo sites; the test build does', () => {
  expect(DEMO_HOSTS).toEqual(expect.arrayContaining(['blog.localhost', 'cafe.localhost']));
  for (const host of DEMO_HOSTS) {
    expect(filesMentioning(DIST, host), `${host} in dist/`).toEqual([]);
    expect(filesMentioning(TEST_DIST, host), `${host} in dist-test/`).toContain('content-sites.js');
  }
});

test('the reader view’s fault hook (how the tests make Readability fail) is only in the test build', () => {
  expect(filesMentioning(DIST, 'tether-test-fault')).toEqual([]);
  expect(filesMentioning(TEST_DIST, 'tether-test-fault')).toEqual(['content-read.js']);
});
