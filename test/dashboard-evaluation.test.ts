// Evaluations in the dashboard, in real headless Chromium: a pipeline run that validated every step
// (evalEvery) shows each checkpoint's val reward with the best marked (not the last: the simulated
// model is best at checkpoint 2); "Evaluate" on a checkpoint opens a scenario picker (the run's VAL
// scenarios, plus new ones typed in), starts an evaluation and follows it to COMPLETED with its
// eval/reward; two checkpoints' trajectories for the same scenario show side by side. axe-core finds
// no serious or critical violation, and the page fits a 390 px screen. Waits are on the page's state.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startOpenAISim, type OpenAISim } from './fixtures/openai-sim';
import { trajectoriesIn } from './fixtures/openai-sim-replies';
import { bedConfig, createRun, PROVIDER_KEY, waitDone } from './fixtures/pipeline-bed';
import { startWorkerSim, type WorkerSim } from './fixtures/worker-sim';
import { browserAvailability, launchBrowser, type BrowserSession } from './helpers/browser';
import { ensureDashboardBuilt } from './helpers/dashboard-bundle';
import { startServer, type TestServer } from './helpers/server';

const TOKEN = 'worker-token-0123456789abcdef';
const QUALITY = [0.2, 0.4, 0.9, 0.6, 0.5];
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const { playwright, unavailable } = await browserAvailability();
const title = (what: string) => (unavailable ? `SKIPPED, browser unavailable: ${unavailable}` : what);

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<any> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  })) as string[];
}

let openai: OpenAISim | undefined;
let worker: WorkerSim | undefined;
let s: TestServer | undefined;
let browser: BrowserSession | undefined;

beforeAll(async () => {
  ensureDashboardBuilt();
  if (unavailable) return;
  openai = await startOpenAISim({ apiKey: PROVIDER_KEY });
  const stepOf = (model: string) => Number(/@(\d+)$/.exec(model)?.[1] ?? 0);
  openai.setResponder('rollout', (req, ctx) => {
    const step = stepOf(String(req.model));
    return `Quality ${QUALITY[step] ?? 0.1} answer (variant ${ctx.call}) from checkpoint ${step}.`;
  });
  openai.setResponder('judge', (req) => ({
    scores: trajectoriesIn(req).map(({ id, text }) => ({
      trajectory_id: id,
      explanation: 'scored by the quality it states',
      score: Number(/Quality ([\d.]+)/.exec(text)?.[1] ?? 0),
    })),
  }));
  worker = await startWorkerSim({ inferenceUrl: openai.url, inferenceApiKey: PROVIDER_KEY, token: TOKEN });
  s = await startServer({
    pipeline: { ...bedConfig(openai.url, { name: 'gpu1', url: worker.url, kind: 'worker' }), workerToken: TOKEN },
  });
  browser = await launchBrowser(playwright!);
}, 180_000);
afterAll(async () => {
  if (browser) {
    expect(browser.externalRequests).toEqual([]);
    expect(browser.pageErrors, `the dashboard threw:\n${browser.pageErrors.join('\n')}`).toEqual([]);
    await browser.close();
  }
  await s?.stop();
  await worker?.close();
  await openai?.close();
});

describe('evaluations in the dashboard', () => {
  it.skipIf(unavailable !== null)(
    title(
      'checkpoints with their val reward and the best marked, Evaluate with a scenario picker followed to COMPLETED, and two checkpoints side by side',
    ),
    async () => {
      const run = await createRun(s!, 'dash-eval', {
        numExamples: 6,
        rolloutsPerGroup: 2,
        pipeline: {
          groupsPerStep: 2,
          evalEvery: 1,
          evalScenarios: [
            { inputText: 'VAL-SCENARIO-1: where is my parcel?' },
            { inputText: 'VAL-SCENARIO-2: refunds?' },
          ],
        },
      });
      expect((await waitDone(s!, run.id, 60_000)).status).toBe('COMPLETED');
      const page = browser!.page;
      await page.setViewportSize({ width: 1200, height: 900 });
      await page.goto(`${s!.url}/runs/${run.id}`, { waitUntil: 'load' });

      // The checkpoints list: val/reward per checkpoint, the best (step 2, not the last, 3) marked.
      const table = page.getByRole('table', { name: 'checkpoints' });
      await expect.poll(() => table.locator('tbody tr').count(), { timeout: 15_000 }).toBe(3);
      for (const step of [1, 2, 3])
        await expect
          .poll(() => table.locator(`tr[data-step="${step}"]`).innerText())
          .toContain(`val/reward ${QUALITY[step].toPrecision(3)}`);
      expect(await table.locator('tr[data-best="true"]').getAttribute('data-step')).toBe('2');
      await expect.poll(() => page.getByTestId('best-checkpoint').innerText()).toContain('Best by val/reward: step 2');

      // Evaluate checkpoint 1: the run's VAL scenarios are offered (ticked), one more is typed in.
      await page.getByRole('button', { name: 'Evaluate checkpoint 1' }).click();
      const form = page.getByRole('form', { name: 'evaluate checkpoint 1' });
      await expect.poll(() => form.getByRole('checkbox').count()).toBe(2);
      await form.getByRole('checkbox').first().uncheck();
      await form.getByRole('textbox').fill('A new scenario typed in the dashboard');
      await form.getByRole('button', { name: 'Evaluate on 2 scenarios' }).click();
      const evaluations = page.getByRole('table', { name: 'evaluations' });
      await expect.poll(() => evaluations.locator('tr[data-status]').count(), { timeout: 15_000 }).toBe(1);
      await expect
        .poll(() => evaluations.locator('tr[data-status]').getAttribute('data-status'), { timeout: 30_000 })
        .toBe('COMPLETED');
      await expect
        .poll(() => evaluations.locator('tr[data-status]').innerText())
        .toContain(`eval/reward ${QUALITY[1].toPrecision(3)}`);
      expect(await evaluations.locator('tr[data-status]').innerText()).toContain('2 scenarios on ');

      // Two checkpoints side by side on one scenario: the val trajectories of steps 1 and 2.
      const compare = page.getByRole('region', { name: 'compare checkpoints' }).or(page.locator('.checkpoint-compare'));
      await compare.getByLabel('Left step').selectOption('1');
      await compare.getByLabel('Right step').selectOption('2');
      await compare.getByLabel('scenario').selectOption('VAL-SCENARIO-2: refunds?');
      await expect.poll(() => page.getByTestId('compare-left').innerText()).toContain('from checkpoint 1');
      await expect.poll(() => page.getByTestId('compare-right').innerText()).toContain('from checkpoint 2');
      expect(await page.getByTestId('compare-left').innerText()).toContain('VAL-SCENARIO-2');
      expect(await page.getByTestId('compare-right').innerText()).toContain('VAL-SCENARIO-2');

      expect(await axeViolations(page)).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
        .toBeLessThanOrEqual(0)
        .catch(async (err) => {
          // Which elements stick out, for the failure message.
          const wide = await page.evaluate(() =>
            [...document.querySelectorAll('body *')]
              .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
              .slice(0, 8)
              .map(
                (e) =>
                  `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}[${e.closest('table')?.getAttribute('aria-label') ?? ''}] ${Math.round(e.getBoundingClientRect().right)} ${(e as HTMLElement).innerText?.slice(0, 30)}`,
              ),
          );
          throw new Error(`${err}: ${wide.join('; ')}`);
        });
    },
    120_000,
  );
});
