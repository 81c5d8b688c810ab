// Finding and comparing runs in the dashboard, in real headless Chromium, as the done-when
// says: among 1,000 runs a user finds the one tagged `baseline` with `config.learning_rate >= 1e-5`
// and `metrics.val/reward > 0.6` by typing a query, opens a compare of three runs with smoothed val
// curves and a config diff, shares its URL and gets the same view in a new tab. Also: the list,
// the run page and compare fit a 390 px screen without sideways scrolling, dark mode follows
// prefers-color-scheme, and axe-core finds no serious or critical accessibility violation.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import BetterSqlite3 from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildRunsDatabase } from '../bench/lib/datasets';
import { graphql } from './gql';
import { browserAvailability, launchBrowser, type BrowserSession } from './helpers/browser';
import { createRun } from './helpers/builders';
import { ensureDashboardBuilt } from './helpers/dashboard-bundle';
import { startServer, type TestServer } from './helpers/server';

const RecordVal = graphql(`
  mutation DashboardSearchRecordVal($runId: ID!, $points: [MetricPointInput!]!) {
    recordMetrics(runId: $runId, split: "val", points: $points) {
      __typename
    }
  }
`);

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const { playwright, unavailable } = await browserAvailability();
const title = (what: string) => (unavailable ? `SKIPPED, browser unavailable: ${unavailable}` : what);

/** axe-core's serious and critical violations on the page as it is now (axe runs through the debugger, not a script tag, so the CSP stays on). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<any> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v: any) =>
          `${v.id} (${v.impact}): ${v.help} — ${v.nodes
            .map((n: any) => n.target.join(' '))
            .slice(0, 5)
            .join(', ')}`,
      );
  });
  return result as string[];
}

/** How far the page scrolls sideways (0: it fits). */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

const rowNames = (page: Page) => page.locator('table.runs-list tbody tr[data-run-id] a.run-link').allInnerTexts();

describe('finding and comparing runs in the dashboard', () => {
  let server: TestServer;
  let browser: BrowserSession;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    if (unavailable) return;
    ensureDashboardBuilt();
    // 997 runs in Atelier's row layout, a tenth of them tagged baseline with val/reward at most 0.6
    // or a learning rate below 1e-5: the query must tell the one run apart from them.
    const dir = (await import('node:fs')).mkdtempSync(`${(await import('node:os')).tmpdir()}/atelier-search-ui-`);
    const data = await buildRunsDatabase(dir, { runs: 997, perRun: 0, messageBytes: 100, name: 'ui.sqlite' });
    const db = new BetterSqlite3(data.path);
    db.transaction(() => {
      for (let id = 1; id <= 997; id++) {
        db.prepare('UPDATE training_runs SET name = ?, learning_rate = ? WHERE id = ?').run(
          `filler-${id}`,
          id % 2 ? 5e-6 : 2e-5,
          id,
        );
        if (id % 10 === 0) db.prepare('INSERT INTO run_tags (run_id, tag) VALUES (?, ?)').run(id, 'baseline');
        const last = id % 2 ? 0.9 : 0.3 + (id % 30) / 100; // high only where the learning rate is too low
        db.prepare(
          `INSERT INTO run_summaries (run_id, split, name, source, step, last, min, max) VALUES (?, 'val', 'val/reward', 'values', 3, ?, ?, ?)`,
        ).run(id, last, last, last);
      }
    })();
    db.close();
    server = await startServer({ databaseUrl: `sqlite:${data.path}` });
    const specs = [
      { name: 'target-run', lr: 2e-5, val: [0.3, 0.5, 0.62, 0.71], config: { optimizer: 'adamw', batch: 16 } },
      { name: 'low-lr-run', lr: 5e-6, val: [0.4, 0.7, 0.8, 0.85], config: { optimizer: 'adamw', batch: 32 } },
      { name: 'weak-run', lr: 3e-5, val: [0.2, 0.3, 0.35, 0.5], config: { optimizer: 'sgd', batch: 16 } },
    ];
    for (const spec of specs) {
      const run = await createRun(server, {
        name: spec.name,
        tags: ['baseline'],
        learningRate: spec.lr,
        projectName: 'search-ui',
        config: spec.config,
      });
      ids[spec.name] = run.id;
      const res = await server.gql(RecordVal, {
        runId: run.id,
        points: spec.val.map((v, step) => ({ step, values: [{ name: 'val/reward', value: v }] })),
      });
      expect(res.recordMetrics.__typename).toBe('RecordMetricsPayload');
    }
    browser = await launchBrowser(playwright!);
  }, 180_000);

  afterAll(async () => {
    if (browser) {
      expect(browser.pageErrors, `the dashboard threw:\n${browser.pageErrors.join('\n')}`).toEqual([]);
      expect(browser.externalRequests).toEqual([]);
      await browser.close();
    }
    await server?.stop();
  });

  it.skipIf(unavailable !== null)(
    title(
      'finds the baseline run by a typed query, compares three runs smoothed with a config diff, and the shared URL opens the same view',
    ),
    async () => {
      const { page, context } = browser;
      await page.goto(`${server.url}/`, { waitUntil: 'load' });
      await expect
        .poll(() => page.locator('[data-testid="runs-total"]').innerText(), { timeout: 15_000 })
        .toBe('1000 runs');

      const query = 'tag = baseline AND config.learning_rate >= 1e-5 AND metrics.val/reward > 0.6';
      await page.getByLabel('Search runs').fill(query);
      await page.getByLabel('Search runs').press('Enter');
      await expect
        .poll(() => page.locator('[data-testid="runs-total"]').innerText(), { timeout: 15_000 })
        .toBe('1 run');
      expect(await rowNames(page)).toEqual(['target-run']);
      // The search is in the URL: a deep link to the filtered list.
      expect(new URL(page.url()).searchParams.get('q')).toBe(query);

      // A query the language does not know says where and what it expected.
      await page.getByLabel('Search runs').fill('tag = baseline AND colour = red');
      await page.getByLabel('Search runs').press('Enter');
      await expect
        .poll(() => page.locator('[data-testid="runs-error"]').innerText(), { timeout: 15_000 })
        .toContain('at character 20');

      // Three runs, then compare them.
      await page.getByLabel('Search runs').fill('project = search-ui');
      await page.getByLabel('Search runs').press('Enter');
      await expect
        .poll(() => rowNames(page).then((n) => n.sort()), { timeout: 15_000 })
        .toEqual(['low-lr-run', 'target-run', 'weak-run']);
      for (const name of ['target-run', 'low-lr-run', 'weak-run']) await page.getByLabel(`compare ${name}`).check();
      await page.getByRole('button', { name: 'Compare (3)' }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/compare');

      const chart = page.getByRole('img', { name: 'val/reward comparison' });
      await expect.poll(() => chart.getAttribute('data-points'), { timeout: 15_000 }).toBe('4');
      await page.getByLabel('Smoothing').fill('0.6');
      await expect.poll(() => new URL(page.url()).searchParams.get('smooth')).toBe('0.6');
      expect(await page.locator('[data-testid="smooth-value"]').innerText()).toBe('0.60');
      const diffKeys = await page
        .locator('table.config-diff tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));
      // Only what differs: learning rate, optimizer and batch; not the settings they share.
      expect(diffKeys.sort()).toEqual(['batch', 'learning_rate', 'optimizer']);
      const legend = await page.locator('figure.chart .u-legend').first().innerText();
      for (const name of ['target-run', 'low-lr-run', 'weak-run']) expect(legend).toContain(name);
      expect(await axeViolations(page), 'axe on compare').toEqual([]);

      // The URL is the view: a new tab shows the same runs, smoothing and diff.
      const shared = page.url();
      const tab = await context.newPage();
      try {
        await tab.goto(shared, { waitUntil: 'load' });
        const again = tab.getByRole('img', { name: 'val/reward comparison' });
        await expect.poll(() => again.getAttribute('data-points'), { timeout: 15_000 }).toBe('4');
        expect(await tab.locator('[data-testid="smooth-value"]').innerText()).toBe('0.60');
        expect(await tab.getByLabel('Smoothing').inputValue()).toBe('0.6');
        const keys = await tab
          .locator('table.config-diff tbody tr')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));
        expect(keys.sort()).toEqual(['batch', 'learning_rate', 'optimizer']);
        const tabLegend = await tab.locator('figure.chart .u-legend').first().innerText();
        for (const name of ['target-run', 'low-lr-run', 'weak-run']) expect(tabLegend).toContain(name);
      } finally {
        await tab.close();
      }
    },
    120_000,
  );

  it.skipIf(unavailable !== null)(
    title(
      'a filtered, sorted list is a deep link; the list, a run page and compare fit 390 px; dark mode; axe finds nothing serious',
    ),
    async () => {
      const { page } = browser;
      const q = encodeURIComponent('tag = baseline AND project = search-ui');
      await page.goto(`${server.url}/?q=${q}&sort=val:desc`, { waitUntil: 'load' });
      await expect.poll(() => rowNames(page), { timeout: 15_000 }).toEqual(['low-lr-run', 'target-run', 'weak-run']);
      expect(await page.getByRole('columnheader', { name: /Val reward/ }).getAttribute('aria-sort')).toBe('descending');
      // Sorting by clicking a column flips it, and the URL says so.
      await page.getByRole('button', { name: /Val reward/ }).click();
      await expect.poll(() => rowNames(page), { timeout: 15_000 }).toEqual(['weak-run', 'target-run', 'low-lr-run']);
      expect(new URL(page.url()).searchParams.get('sort')).toBe('val:asc');
      expect(await axeViolations(page), 'axe on the runs list').toEqual([]);

      // A run's page shows its name, tags and config, and edits them through updateRun.
      await page.goto(`${server.url}/runs/${encodeURIComponent(ids['weak-run'])}`, { waitUntil: 'load' });
      const identity = page.locator('section.identity');
      await expect.poll(() => identity.locator('h2').innerText(), { timeout: 15_000 }).toBe('weak-run');
      expect(await identity.locator('a.run-tag').allInnerTexts()).toEqual(['baseline']);
      await identity.getByText('Config').click();
      expect(await identity.locator('pre').innerText()).toContain('"optimizer": "sgd"');
      await identity.getByRole('button', { name: 'Edit name, tags, group, notes' }).click();
      await identity.getByLabel('Name').fill('weak-run-renamed');
      await identity.getByLabel('Tags').fill('baseline, retired');
      await identity.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => identity.locator('h2').innerText(), { timeout: 15_000 }).toBe('weak-run-renamed');
      expect(await identity.locator('a.run-tag').allInnerTexts()).toEqual(['baseline', 'retired']);
      expect(await axeViolations(page), 'axe on a run page').toEqual([]);
      await page.goto(`${server.url}/?q=${encodeURIComponent('tag = retired')}`, { waitUntil: 'load' });
      await expect.poll(() => rowNames(page), { timeout: 15_000 }).toEqual(['weak-run-renamed']);

      await page.setViewportSize({ width: 390, height: 844 });
      try {
        await page.goto(`${server.url}/`, { waitUntil: 'load' });
        await expect.poll(() => page.locator('table.runs-list tbody tr').count(), { timeout: 15_000 }).toBe(50);
        expect(await sideways(page), 'runs list at 390 px').toBeLessThanOrEqual(0);
        await page.goto(`${server.url}/runs/${encodeURIComponent(ids['target-run'])}`, { waitUntil: 'load' });
        await expect.poll(() => page.locator('h1').innerText(), { timeout: 15_000 }).toContain('Run');
        expect(await sideways(page), 'run page at 390 px').toBeLessThanOrEqual(0);
        await page.goto(`${server.url}/compare?ids=${Object.values(ids).join(',')}&m=val/reward`, {
          waitUntil: 'load',
        });
        await expect
          .poll(() => page.getByRole('img', { name: 'val/reward comparison' }).getAttribute('data-points'), {
            timeout: 15_000,
          })
          .toBe('4');
        expect(await sideways(page), 'compare at 390 px').toBeLessThanOrEqual(0);

        await page.emulateMedia({ colorScheme: 'dark' });
        const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        // --bg of the dark scheme, #0b1120.
        expect(background).toBe('rgb(11, 17, 32)');
        expect(await axeViolations(page), 'axe on compare, dark, 390 px').toEqual([]);
        await page.goto(`${server.url}/`, { waitUntil: 'load' });
        await expect.poll(() => page.locator('table.runs-list tbody tr').count(), { timeout: 15_000 }).toBe(50);
        expect(await axeViolations(page), 'axe on the runs list, dark, 390 px').toEqual([]);
      } finally {
        await page.emulateMedia({ colorScheme: 'light' });
        await page.setViewportSize({ width: 1400, height: 900 });
      }
    },
    120_000,
  );
});
