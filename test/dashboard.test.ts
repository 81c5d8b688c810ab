// The dashboard at `/`: how it is served (offline bundle, page routes, hashed assets cached for good,
// a strict CSP, a 503 that says how to build when the bundle is missing), the SIMULATED flag in the
// API and the page, and, in real headless Chromium, what people see: the runs list updating live, a
// run's charts gaining points as metrics are recorded, the trajectory browser, the compare view, and
// the API key entered once and kept in sessionStorage only. Screenshots go to test-artifacts/.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildRunsDatabase } from '../bench/lib/datasets';
import { createDashboard } from '../src/server/dashboard';
import { graphql } from './gql';
import { browserAvailability, launchBrowser, type BrowserSession } from './helpers/browser';
import { advanceTo, createRun, recordTrajectories, trajectory } from './helpers/builders';
import { DASHBOARD_DIR, ensureDashboardBuilt } from './helpers/dashboard-bundle';
import { bearer, startServer, useTestServer, type TestServer } from './helpers/server';
import { RecordMetrics } from './operations';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

const ServerInfo = graphql(`
  query DashboardTestServerInfo { server { simulated version } }
`);
const RunTotalSteps = graphql(`
  query DashboardTestTotalSteps($id: ID!) { run(id: $id) { totalSteps numExamples numEpochs maxSteps } }
`);

beforeAll(() => ensureDashboardBuilt(), 120_000);
const s = useTestServer();

/** Records two scored trajectories and a metric point (loss, grad norm) for each step. */
async function recordSteps(server: TestServer, runId: string, steps: number[], headers?: Record<string, string>) {
  for (const step of steps) {
    const reward = 0.2 + 0.05 * step;
    await recordTrajectories(server, runId, [trajectory(step, reward), trajectory(step, reward + 0.2)]);
    const res = await server.gql(
      RecordMetrics,
      {
        runId,
        points: [
          { step, epoch: 0, trainingLoss: 1 / (step + 1), values: [{ name: 'grad_norm', value: 0.5 + step / 10 }] },
        ],
      },
      headers,
    );
    expect(res.recordMetrics.__typename).toBe('RecordMetricsPayload');
  }
}

describe('serving the dashboard', () => {
  it('answers /, /runs/<id> and /compare with the page, under a strict CSP, same-origin only', async () => {
    for (const path of ['/', '/runs/VHJhaW5pbmdSdW46MQ', '/compare', '/compare?ids=a,b']) {
      const res = await fetch(`${s.url}${path}`, { headers: { origin: 'http://localhost:5173' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toMatch(/connect-src 'self' ws:\/\/127\.0\.0\.1:\d+ wss:\/\/127\.0\.0\.1:\d+/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      // No CORS for the page: other origins get nothing extra.
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const html = await res.text();
      expect(html).toContain('<div id="app"></div>');
      // Everything it loads comes from this server, and nothing is inline (the CSP would refuse it).
      const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      expect(urls.filter((u) => !u.startsWith('/assets/') && !u.startsWith('data:'))).toEqual([]);
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toContain('atelier-simulated');
    }
  });

  it('serves the hashed assets with their content types, cached for good, and nothing else under /assets', async () => {
    const files = readdirSync(join(DASHBOARD_DIR, 'assets'));
    const js = files.find((f) => f.endsWith('.js'))!;
    const css = files.find((f) => f.endsWith('.css'))!;
    const jsRes = await fetch(`${s.url}/assets/${js}`);
    expect(jsRes.status).toBe(200);
    expect(jsRes.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(jsRes.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const cssRes = await fetch(`${s.url}/assets/${css}`);
    expect(cssRes.headers.get('content-type')).toBe('text/css; charset=utf-8');
    for (const path of [
      '/assets/nope.js',
      '/assets/..%2Fpackage.json',
      '/assets/../package.json',
      '/assets/.hidden.js',
      '/assets/',
    ]) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status, path).toBe(404);
    }
    expect(
      (await fetch(`${s.url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
        .status,
    ).toBe(405);
    // GraphiQL, health and the API are untouched.
    expect((await fetch(`${s.url}/graphql`, { headers: { accept: 'text/html' } })).status).toBe(200);
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    expect((await fetch(`${s.url}/favicon.ico`)).status).not.toBe(200);
  });

  it('says how to build the bundle (503) when there is none, and marks a simulated server in the page', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'atelier-web-'));
    const withIndex = mkdtempSync(join(tmpdir(), 'atelier-web-'));
    writeFileSync(
      join(withIndex, 'index.html'),
      '<!doctype html><html><head><title>x</title></head><body></body></html>',
    );
    const serve = async (dir: string, simulated: boolean) => {
      const dashboard = createDashboard({ dir, simulated, isOpen: async () => true });
      const server: Server = createServer((req, res) => dashboard.handle(req, res) || (res.writeHead(404), res.end()));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return { base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
    };
    try {
      const missing = await serve(empty, false);
      const res = await fetch(`${missing.base}/runs/abc`);
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build');
      // Open (no keys): only loopback hosts are answered, as /graphql does (DNS rebinding).
      expect(await statusWithHost(missing.base, 'evil.example')).toBe(403);
      expect(await statusWithHost(missing.base, 'localhost')).toBe(503);
      await missing.close();

      const simulated = await serve(withIndex, true);
      expect(await (await fetch(`${simulated.base}/`)).text()).toContain(
        '<meta name="atelier-simulated" content="true" />',
      );
      await simulated.close();
    } finally {
      rmSync(empty, { recursive: true, force: true });
      rmSync(withIndex, { recursive: true, force: true });
    }
  });

  it('Query.server tells whether the server is simulated; totalSteps is the step total of the dataset iteration', async () => {
    expect((await s.gql(ServerInfo)).server).toEqual({
      simulated: false,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    const sim = await startServer({ simulated: true });
    try {
      expect((await sim.gql(ServerInfo)).server.simulated).toBe(true);
    } finally {
      await sim.stop();
    }
    const tracked = await createRun(s, { projectName: 'totals', numEpochs: 3, maxSteps: 4 });
    expect((await s.gql(RunTotalSteps, { id: tracked.id })).run?.totalSteps).toBe(4);
    const unbounded = await createRun(s, { projectName: 'totals' });
    expect((await s.gql(RunTotalSteps, { id: unbounded.id })).run?.totalSteps).toBeNull();
  });
});

/** GET / with a given Host header (fetch does not let one set it). */
function statusWithHost(base: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/`, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The page shows "live" once its subscriptions are registered (and it has reloaded after). */
async function waitLive(page: Page) {
  await expect.poll(() => page.locator('[data-testid="live"]').count(), { timeout: 10_000 }).toBe(1);
}

const { playwright, unavailable } = await browserAvailability();
const browserTitle = (what: string) => (unavailable ? `SKIPPED, browser unavailable: ${unavailable}` : what);

describe('the dashboard in a real browser', () => {
  let browser: BrowserSession;
  /** What the Content-Security-Policy refused: nothing may be (no inline code or styles, no outside hosts). */
  const cspViolations: string[] = [];
  beforeAll(async () => {
    if (unavailable) return;
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchBrowser(playwright!);
    browser.page.on('console', (m) => {
      if (/Content[- ]Security[- ]Policy/i.test(m.text())) cspViolations.push(m.text());
    });
  });
  afterAll(async () => {
    if (browser) {
      expect(cspViolations).toEqual([]);
      expect(
        browser.externalRequests,
        `the dashboard reached outside the machine:\n${browser.externalRequests.join('\n')}`,
      ).toEqual([]);
      expect(browser.pageErrors, `the dashboard threw:\n${browser.pageErrors.join('\n')}`).toEqual([]);
      await browser.close();
    }
  });

  it.skipIf(unavailable !== null)(
    browserTitle('the runs list shows a run created by another client, and its status changes, without a reload'),
    async () => {
      const { page } = browser;
      await createRun(s, { projectName: 'list-before' });
      await page.goto(`${s.url}/`, { waitUntil: 'load' });
      await expect
        .poll(() => page.locator('table.runs tbody tr[data-run-id]').count(), { timeout: 10_000 })
        .toBeGreaterThan(0);
      await waitLive(page);
      const before = await page.locator('[data-testid="runs-total"]').innerText();

      const run = await createRun(s, { projectName: 'created-elsewhere' });
      const row = page.locator(`tr[data-run-id="${run.id}"]`);
      await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
      expect(await row.innerText()).toContain('created-elsewhere');
      expect(await page.locator('[data-testid="runs-total"]').innerText()).not.toBe(before);

      await advanceTo(s, run.id, 'COLLECTING');
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 10_000 }).toBe('COLLECTING');

      // Filters: by project, then by status.
      await page.fill('input[name="project"]', 'created-elsewhere');
      await page.click('form.filters button[type="submit"]');
      await expect.poll(() => page.locator('table.runs tbody tr[data-run-id]').count(), { timeout: 10_000 }).toBe(1);
      await page.locator('.status-filter label', { hasText: 'completed' }).click();
      await expect.poll(() => page.locator('table.runs tbody tr[data-run-id]').count(), { timeout: 10_000 }).toBe(0);
      await page.locator('.status-filter label', { hasText: 'collecting' }).click();
      await expect.poll(() => page.locator('table.runs tbody tr[data-run-id]').count(), { timeout: 10_000 }).toBe(1);

      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-runs.png') });
      expect(cspViolations).toEqual([]);

      // The policy is enforced: an injected inline script does not run, and the refusal is reported.
      const ran = await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.__injected = true';
        document.head.appendChild(script);
        return (window as unknown as { __injected?: boolean }).__injected === true;
      });
      expect(ran).toBe(false);
      await expect.poll(() => cspViolations.length, { timeout: 5000 }).toBeGreaterThan(0);
      cspViolations.length = 0;
    },
  );

  it.skipIf(unavailable !== null)(
    browserTitle(
      'a run page: the avg reward, training loss and gradient norm charts gain points as metrics are recorded',
    ),
    async () => {
      const { page } = browser;
      const run = await createRun(s, {
        projectName: 'charts',
        taskDescription: 'Summarize support tickets in one sentence',
        maxSteps: 10,
      });
      await advanceTo(s, run.id, 'TRAINING');
      await recordSteps(s, run.id, [0]);

      await page.goto(`${s.url}/runs/${run.id}`, { waitUntil: 'load' });
      const reward = page.getByRole('img', { name: 'avg reward', exact: true });
      const loss = page.getByRole('img', { name: 'training loss', exact: true });
      const grad = page.getByRole('img', { name: 'gradient norm', exact: true });
      await expect.poll(() => reward.getAttribute('data-points'), { timeout: 10_000 }).toBe('1');
      expect(await page.locator('h1').innerText()).toContain('Run #');
      expect(await page.locator('.task').innerText()).toContain('Summarize support tickets');
      expect(await page.locator('ol.history').innerText()).toContain('TRAINING');

      await waitLive(page);
      await recordSteps(s, run.id, [1, 2]);
      await expect.poll(() => reward.getAttribute('data-points'), { timeout: 10_000 }).toBe('3');
      await expect.poll(() => loss.getAttribute('data-points'), { timeout: 10_000 }).toBe('3');
      await expect.poll(() => grad.getAttribute('data-points'), { timeout: 10_000 }).toBe('3');
      // The canvas is drawn (uPlot), and the progress says which step of how many.
      expect(await reward.locator('canvas').count()).toBe(1);
      await expect.poll(() => page.locator('.progress-line').innerText(), { timeout: 10_000 }).toContain('of 10');

      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-run.png'), fullPage: true });
    },
  );

  it.skipIf(unavailable !== null)(
    browserTitle('the trajectory browser lists trajectories best reward first, with messages and RULER explanations'),
    async () => {
      const { page } = browser;
      const run = await createRun(s, { projectName: 'trajectories' });
      await advanceTo(s, run.id, 'SCORING');
      const scored = (reward: number, words: string) =>
        trajectory(0, reward, {
          messages: [
            { role: 'user', content: `Where is my parcel? (${words})` },
            { role: 'assistant', content: `Answer that is ${words}` },
          ],
          metadata: { ruler_explanation: `Judged ${words}` },
        });
      await recordTrajectories(s, run.id, [scored(0.2, 'vague'), scored(0.9, 'precise'), scored(0.5, 'polite')]);

      await page.goto(`${s.url}/runs/${run.id}`, { waitUntil: 'load' });
      const items = page.locator('ol.trajectories > li');
      await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(3);
      expect(await items.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-reward'))))).toEqual([
        0.9, 0.5, 0.2,
      ]);
      const first = await items.first().innerText();
      expect(first).toContain('Answer that is precise');
      expect(first).toContain('Judged precise');
      expect(first).toContain('Where is my parcel? (precise)');

      // A batch recorded while the page is open appears in its place.
      await waitLive(page);
      await recordTrajectories(s, run.id, [scored(0.7, 'live')]);
      await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(4);
      expect(await items.nth(1).innerText()).toContain('Judged live');

      await page.locator('ol.trajectories').screenshot({ path: join(ARTIFACTS, 'dashboard-trajectories.png') });
    },
  );

  it.skipIf(unavailable !== null)(
    browserTitle('compare overlays the reward curves of two runs, their histories fetched in one query'),
    async () => {
      const { page } = browser;
      const a = await createRun(s, { projectName: 'compare-a' });
      const b = await createRun(s, { projectName: 'compare-b' });
      for (const run of [a, b]) await advanceTo(s, run.id, 'TRAINING');
      await recordSteps(s, a.id, [0, 1, 2, 3]);
      await recordSteps(s, b.id, [0, 1, 2, 3, 4, 5]);

      const compareQueries: string[] = [];
      const onRequest = (req: { method(): string; url(): string; postData(): string | null }) => {
        if (req.method() === 'POST' && req.url().endsWith('/graphql') && req.postData()?.includes('DashboardCompare('))
          compareQueries.push(req.postData()!);
      };
      page.on('request', onRequest);
      try {
        await page.goto(`${s.url}/compare?ids=${a.id},${b.id}`, { waitUntil: 'load' });
        // The train reward, the metric a run of these has (val/reward too, when runs have it).
        const chart = page.getByRole('img', { name: 'train/reward comparison' });
        await expect.poll(() => chart.getAttribute('data-points'), { timeout: 10_000 }).toBe('6');
        expect(await page.locator('[data-runs]').getAttribute('data-runs')).toBe('2');
        const legend = await page.locator('figure.chart .u-legend').first().innerText();
        expect(legend).toContain('compare-a');
        expect(legend).toContain('compare-b');
        expect(compareQueries).toHaveLength(1);
        expect(compareQueries[0]).toContain('maxPoints');
        await page.screenshot({ path: join(ARTIFACTS, 'dashboard-compare.png') });
      } finally {
        page.off('request', onRequest);
      }
    },
  );
});

describe('the dashboard at scale', () => {
  let big: TestServer;
  let dir: string;
  let browser: BrowserSession;
  beforeAll(async () => {
    if (unavailable) return;
    dir = mkdtempSync(join(tmpdir(), 'atelier-dashboard-scale-'));
    const data = await buildRunsDatabase(dir, { runs: 1000, perRun: 0, messageBytes: 200 });
    big = await startServer({ databaseUrl: `sqlite:${data.path}` });
    browser = await launchBrowser(playwright!);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await big?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(unavailable !== null)(
    browserTitle(
      'stays fast with 1,000 runs (one page of 50) and a 10,000-point history (500 points, downsampled by the server)',
    ),
    async () => {
      const { page } = browser;
      const run = await createRun(big, { projectName: 'long-history' });
      await advanceTo(big, run.id, 'TRAINING');
      for (let from = 0; from < 10_000; from += 1000) {
        const points = Array.from({ length: 1000 }, (_, i) => ({
          step: from + i,
          epoch: 0,
          trainingLoss: 1 / (1 + from + i),
          values: [{ name: 'grad_norm', value: 1 + Math.sin(from + i) }],
        }));
        const res = await big.gql(RecordMetrics, { runId: run.id, points });
        expect(res.recordMetrics.__typename).toBe('RecordMetricsPayload');
      }

      const sizes: Record<string, number> = {};
      page.on('response', async (res) => {
        const body = res.request().postData();
        const name = body && /"query":"(?:query|subscription) (\w+)/.exec(body)?.[1];
        if (name) sizes[name] = Math.max(sizes[name] ?? 0, (await res.body().catch(() => Buffer.alloc(0))).length);
      });

      let started = Date.now();
      await page.goto(`${big.url}/`, { waitUntil: 'load' });
      await expect.poll(() => page.locator('table.runs tbody tr[data-run-id]').count(), { timeout: 15_000 }).toBe(50);
      const listMs = Date.now() - started;
      expect(await page.locator('[data-testid="runs-total"]').innerText()).toBe('1001 runs');
      // Keyset paging: the next page is 50 more, not everything.
      await page.getByRole('button', { name: 'Older →' }).click();
      await expect
        .poll(() => page.locator('table.runs tbody tr[data-run-id]').first().getAttribute('data-run-id'), {
          timeout: 10_000,
        })
        .not.toBe(run.id);
      expect(await page.locator('table.runs tbody tr[data-run-id]').count()).toBe(50);

      started = Date.now();
      await page.goto(`${big.url}/runs/${run.id}`, { waitUntil: 'load' });
      const reward = page.getByRole('img', { name: 'avg reward', exact: true });
      const loss = page.getByRole('img', { name: 'training loss', exact: true });
      await expect
        .poll(async () => Number(await loss.getAttribute('data-points')), { timeout: 15_000 })
        .toBeGreaterThan(0);
      const runMs = Date.now() - started;
      const shown = Number(await loss.getAttribute('data-points'));
      expect(shown).toBeLessThanOrEqual(500);
      expect(shown).toBeGreaterThan(250);
      expect(Number(await reward.getAttribute('data-points'))).toBe(shown);
      // The last step is always the last point, so the chart reaches step 9,999.
      expect(await page.locator('.note').innerText()).toContain('several steps');

      console.log(
        `1,000 runs: first page in ${listMs} ms; 10,000-point history: ${shown} points in ${runMs} ms; responses (bytes): ${JSON.stringify(sizes)}`,
      );
      expect(sizes.DashboardRunsSearch).toBeLessThan(100_000);
      expect(sizes.DashboardRun).toBeLessThan(600_000);
      // Generous bounds for a shared CI machine; both take well under a second on an idle one.
      expect(listMs).toBeLessThan(8000);
      expect(runMs).toBeLessThan(8000);
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-long-history.png') });
    },
  );
});

describe('the dashboard with keys required', () => {
  const keyed = useTestServer({ keys: { w: 'write' } });
  let browser: BrowserSession;
  beforeAll(async () => {
    if (!unavailable) browser = await launchBrowser(playwright!);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.skipIf(unavailable !== null)(
    browserTitle(
      'asks for the key once, keeps it in sessionStorage only, subscribes with it, and cancels a run with it',
    ),
    async () => {
      const { page } = browser;
      const run = (await keyed.gql(
        `mutation { createTrainingRun(input: { mode: TRACKED, modelName: "m", projectName: "keyed", taskDescription: "t" }) { ... on CreateTrainingRunPayload { run { id } } } }`,
        {},
        bearer(keyed.keys.w),
      )) as { createTrainingRun: { run: { id: string } } };

      await page.goto(`${keyed.url}/`, { waitUntil: 'load' });
      const keyInput = page.locator('input[name="apiKey"]');
      await expect.poll(() => keyInput.count(), { timeout: 10_000 }).toBe(1);
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-key.png') });
      await keyInput.fill(keyed.keys.w);
      await page.click('form.key-form button[type="submit"]');
      await expect
        .poll(() => page.locator(`tr[data-run-id="${run.createTrainingRun.run.id}"]`).count(), { timeout: 10_000 })
        .toBe(1);

      const storage = await page.evaluate(() => ({
        session: sessionStorage.getItem('atelier.apiKey'),
        local: JSON.stringify({ ...localStorage }),
        cookie: document.cookie,
      }));
      expect(storage).toEqual({ session: keyed.keys.w, local: '{}', cookie: '' });

      // Live over the WebSocket with the key: a run made elsewhere shows up.
      await waitLive(page);
      const other = (await keyed.gql(
        `mutation { createTrainingRun(input: { mode: TRACKED, modelName: "m", projectName: "keyed-live", taskDescription: "t" }) { ... on CreateTrainingRunPayload { run { id } } } }`,
        {},
        bearer(keyed.keys.w),
      )) as { createTrainingRun: { run: { id: string } } };
      await expect
        .poll(() => page.locator(`tr[data-run-id="${other.createTrainingRun.run.id}"]`).count(), { timeout: 10_000 })
        .toBe(1);

      // A reload (same tab) does not ask again; the run page's cancel button uses the key.
      await page.goto(`${keyed.url}/runs/${other.createTrainingRun.run.id}`, { waitUntil: 'load' });
      await expect.poll(() => page.locator('h1').innerText(), { timeout: 10_000 }).toContain('Run #');
      expect(await keyInput.count()).toBe(0);
      await page.getByRole('button', { name: 'Cancel run' }).click();
      await page.getByRole('button', { name: 'Yes, cancel the run' }).click();
      await expect
        .poll(() => page.locator('.page-head .badge').first().innerText(), { timeout: 10_000 })
        .toBe('CANCELLED');
      await expect.poll(() => page.locator('ol.history').innerText(), { timeout: 10_000 }).toContain('CANCELLED');

      // Another tab has its own sessionStorage: the key stays in this one.
      const tab = await browser.context.newPage();
      await tab.goto(`${keyed.url}/`, { waitUntil: 'load' });
      expect(await tab.evaluate(() => sessionStorage.getItem('atelier.apiKey'))).toBeNull();
      await expect.poll(() => tab.locator('input[name="apiKey"]').count(), { timeout: 10_000 }).toBe(1);
      await tab.close();
      expect(browser.pageErrors).toEqual([]);
    },
  );
  it.skipIf(unavailable !== null)(
    browserTitle(
      'with a key scoped to a project shows that project’s runs only, live too, and another project’s run as missing',
    ),
    async () => {
      const made = async (projectName: string) =>
        (
          (await keyed.gql(
            `mutation($p: String!) { createTrainingRun(input: { mode: TRACKED, modelName: "m", projectName: $p, taskDescription: "t" }) { ... on CreateTrainingRunPayload { run { id } } } }`,
            { p: projectName },
            bearer(keyed.keys.w),
          )) as { createTrainingRun: { run: { id: string } } }
        ).createTrainingRun.run.id;
      const mine = await made('scoped-mine');
      const theirs = await made('scoped-theirs');
      const { token } = await keyed.app.services.apiKeys.create({
        name: 'dashboard-scoped',
        scope: 'read',
        projects: ['scoped-mine'],
      });

      // A tab of its own: its sessionStorage starts empty, so the page asks for the key.
      const page = await browser.context.newPage();
      try {
        await page.goto(`${keyed.url}/`, { waitUntil: 'load' });
        const keyInput = page.locator('input[name="apiKey"]');
        await expect.poll(() => keyInput.count(), { timeout: 10_000 }).toBe(1);
        await keyInput.fill(token);
        await page.click('form.key-form button[type="submit"]');
        await expect.poll(() => page.locator(`tr[data-run-id="${mine}"]`).count(), { timeout: 10_000 }).toBe(1);
        const rows = page.locator('table.runs tbody tr[data-run-id]');
        expect(await rows.count()).toBe(1);
        expect(await page.locator('[data-testid="runs-total"]').innerText()).toMatch(/\b1\b/);

        // Live: a run of another project made now never shows; the next run of its own does.
        await waitLive(page);
        const theirsLater = await made('scoped-theirs');
        const mineLater = await made('scoped-mine');
        await expect.poll(() => page.locator(`tr[data-run-id="${mineLater}"]`).count(), { timeout: 10_000 }).toBe(1);
        expect(await page.locator(`tr[data-run-id="${theirsLater}"]`).count()).toBe(0);
        expect(await rows.count()).toBe(2);

        // Another project's run reads exactly as a run that does not exist.
        await page.goto(`${keyed.url}/runs/${theirs}`, { waitUntil: 'load' });
        await expect
          .poll(() => page.locator('p.error').innerText(), { timeout: 10_000 })
          .toBe(`No run with the id ${theirs}.`);
      } finally {
        await page.close();
      }
      expect(browser.pageErrors).toEqual([]);
    },
  );
});
