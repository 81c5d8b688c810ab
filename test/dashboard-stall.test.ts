// The dashboard says when a TRACKED run has stalled, in real headless Chromium: a STALLED badge (and a
// note saying since when) on the run page and a badge in the runs list, both appearing live when the
// server marks the run, and going away live when rows arrive again. The server's monitor is asked to
// judge as of a moment past STALL_TIMEOUT_SECONDS (an injected clock), so nothing waits on time.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { browserAvailability, launchBrowser, type BrowserSession } from './helpers/browser';
import { advanceTo, createRun } from './helpers/builders';
import { ensureDashboardBuilt } from './helpers/dashboard-bundle';
import { useTestServer } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { RecordMetrics } from './operations';

const { playwright, unavailable } = await browserAvailability();
const title = (what: string) => (unavailable ? `SKIPPED, browser unavailable: ${unavailable}` : what);
const TIMEOUT_MS = 900_000;

beforeAll(() => void ensureDashboardBuilt(), 120_000);
const s = useTestServer({ pipeline: { stallTimeoutMs: TIMEOUT_MS } });

describe('stalled runs in the dashboard', () => {
  let browser: BrowserSession;
  beforeAll(async () => {
    if (!unavailable) browser = await launchBrowser(playwright!);
  });
  afterAll(async () => {
    if (!browser) return;
    expect(browser.externalRequests).toEqual([]);
    expect(browser.pageErrors, `the dashboard threw:\n${browser.pageErrors.join('\n')}`).toEqual([]);
    await browser.close();
  });

  /** Opens a page and waits until its subscriptions are held by the server (the page's live dot, and the listener). */
  async function open(page: Page, path: string) {
    // The page before lets go of its subscriptions first, so the count says the new page's are held.
    await page.goto('about:blank');
    await waitFor(() => s.app.events.listenerCount('runStall') === 0, 30_000, 'the last page to let go');
    await page.goto(`${s.url}${path}`, { waitUntil: 'load' });
    await waitFor(() => s.app.events.listenerCount('runStall') > 0, 30_000, "the page's runStallChanged");
  }

  it.skipIf(unavailable !== null)(
    title('shows STALLED on the run page and in the runs list as the server marks it, and drops it when rows arrive'),
    async () => {
      const { page } = browser;
      const run = await createRun(s, { projectName: 'quiet' });
      await advanceTo(s, run.id, 'TRAINING');
      await s.gql(RecordMetrics, { runId: run.id, points: [{ step: 0, epoch: 0, trainingLoss: 0.3 }] });

      await open(page, `/runs/${run.id}`);
      await expect.poll(() => page.locator('h1', { hasText: 'Run #' }).count(), { timeout: 30_000 }).toBe(1);
      expect(await page.locator('[data-testid="stalled"]').count()).toBe(0);
      const marked = await s.app.services.stalls.check(new Date(Date.now() + TIMEOUT_MS + 1000));
      expect(marked.map((e) => e.runId)).toContain(run.databaseId);
      await expect.poll(() => page.locator('[data-testid="stalled"]').count(), { timeout: 30_000 }).toBe(1);
      expect(await page.locator('[data-testid="stalled-note"]').innerText()).toMatch(/Stalled: no new rows since/);

      // Rows again: active, on the open page.
      await s.gql(RecordMetrics, { runId: run.id, points: [{ step: 1, epoch: 0, trainingLoss: 0.2 }] });
      await expect.poll(() => page.locator('[data-testid="stalled"]').count(), { timeout: 30_000 }).toBe(0);

      // The runs list: the badge comes with the mark, live.
      await open(page, '/');
      const row = page.locator(`table.runs tr[data-run-id="${run.id}"]`);
      await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
      expect(await row.locator('[data-testid="stalled"]').count()).toBe(0);
      await s.app.services.stalls.check(new Date(Date.now() + TIMEOUT_MS + 1000));
      await expect.poll(() => row.locator('[data-testid="stalled"]').count(), { timeout: 30_000 }).toBe(1);
      await s.gql(RecordMetrics, { runId: run.id, points: [{ step: 2, epoch: 0, trainingLoss: 0.1 }] });
      await expect.poll(() => row.locator('[data-testid="stalled"]').count(), { timeout: 30_000 }).toBe(0);
    },
    120_000,
  );
});
