// A run's page in real headless Chromium, with what ART produces: train and val curves of any metric
// charted side by side (a metric picker), tool calls and tool results of a trajectory recorded through
// recordTrajectoryGroups, long conversations collapsed, additional histories, trajectories filtered by
// split and reward range, checkpoints with the best one marked, the run's config, the latest reward
// that exists in the runs list and on the page, and a pipeline run's gradient norm chart. Charts are
// read through the data the page exposes on them (data-points, data-series), never from pixels.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { browserAvailability, launchBrowser, type BrowserSession } from './helpers/browser';
import { advanceTo, createRun, recordTrajectories, trajectory } from './helpers/builders';
import { ensureDashboardBuilt } from './helpers/dashboard-bundle';
import { pipelineConfig, startSims, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { useTestServer, type TestServer } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { CreatePipelineRun, PipelineRunDetails } from './operations';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

type Payload = { __typename: string; message?: string };
const RECORD_METRICS = `mutation($runId: ID!, $split: String!, $points: [MetricPointInput!]!) {
  recordMetrics(runId: $runId, split: $split, points: $points) { __typename ... on Error { message } }
}`;
const RECORD_GROUPS = `mutation($runId: ID!, $step: Int!, $split: String!, $groups: [TrajectoryGroupInput!]!) {
  recordTrajectoryGroups(runId: $runId, step: $step, split: $split, groups: $groups) { __typename ... on Error { message } }
}`;
const RECORD_CHECKPOINT = `mutation($runId: ID!, $step: Int!, $name: String!, $uri: String) {
  recordCheckpoint(runId: $runId, step: $step, name: $name, uri: $uri) { __typename ... on Error { message } }
}`;

async function recordMetrics(
  s: TestServer,
  runId: string,
  split: string,
  points: Array<{ step: number; trainingLoss?: number; values?: Record<string, number> }>,
) {
  const res = await s.gql<{ recordMetrics: Payload }, unknown>(RECORD_METRICS, {
    runId,
    split,
    points: points.map((p) => ({
      step: p.step,
      trainingLoss: p.trainingLoss,
      values: Object.entries(p.values ?? {}).map(([name, value]) => ({ name, value })),
    })),
  });
  expect(res.recordMetrics, JSON.stringify(res)).toMatchObject({ __typename: 'RecordMetricsPayload' });
}

async function recordGroups(s: TestServer, runId: string, step: number, split: string, groups: unknown[]) {
  const res = await s.gql<{ recordTrajectoryGroups: Payload }, unknown>(RECORD_GROUPS, { runId, step, split, groups });
  expect(res.recordTrajectoryGroups, JSON.stringify(res)).toMatchObject({
    __typename: 'RecordTrajectoryGroupsPayload',
  });
}

/** An ART trajectory (model_dump(mode="json") shape): a question and an answer with this reward. */
const simple = (reward: number, text: string) => ({
  messages_and_choices: [
    { role: 'user', content: `Question ${text}` },
    { finish_reason: 'stop', index: 0, logprobs: null, message: { role: 'assistant', content: `Answer ${text}` } },
  ],
  reward,
});

interface SeriesSummary {
  points: number;
  last: [number, number] | null;
}
async function seriesOf(page: Page, chart: string): Promise<Record<string, SeriesSummary>> {
  const raw = await page.getByRole('img', { name: chart, exact: true }).getAttribute('data-series');
  return raw ? JSON.parse(raw) : {};
}

/** The runs list's "Avg reward" cell of a run, found by its column's header (other columns may come and go). */
async function listReward(page: Page, runId: string): Promise<string> {
  return page.evaluate((id) => {
    const headers = [...document.querySelectorAll('table.runs thead th')].map((th) => th.textContent?.trim());
    const row = document.querySelector(`table.runs tr[data-run-id="${id}"]`);
    return (row?.children[headers.indexOf('Last reward')] as HTMLElement | undefined)?.innerText ?? '';
  }, runId);
}

async function waitLive(page: Page) {
  await expect.poll(() => page.locator('[data-testid="live"]').count(), { timeout: 10_000 }).toBe(1);
}

const { playwright, unavailable } = await browserAvailability();
const browserTitle = (what: string) => (unavailable ? `SKIPPED, browser unavailable: ${unavailable}` : what);

let sims: Sims | undefined;
beforeAll(async () => {
  ensureDashboardBuilt();
  if (!unavailable) sims = await startSims();
}, 120_000);
afterAll(() => sims?.close());
const s = useTestServer(() => (sims ? { pipeline: pipelineConfig(sims, { maxConcurrentRuns: 2 }) } : {}));

describe('a run page in a real browser', () => {
  let browser: BrowserSession;
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
    if (!browser) return;
    expect(cspViolations).toEqual([]);
    expect(browser.externalRequests).toEqual([]);
    expect(browser.pageErrors, `the dashboard threw:\n${browser.pageErrors.join('\n')}`).toEqual([]);
    await browser.close();
  });

  it.skipIf(unavailable !== null)(
    browserTitle(
      'a tracked run with train and val history charts both curves of one metric side by side, any metric through the picker, live, and shows its config',
    ),
    async () => {
      const { page } = browser;
      const run = await createRun(s, {
        projectName: 'splits',
        config: { scenario: 'email-agent', lora: { rank: 8 } },
      });
      await advanceTo(s, run.id, 'TRAINING');
      // ART's history.jsonl rows: train every step, val every other step, named as ART names them.
      await recordMetrics(
        s,
        run.id,
        'train',
        [0, 1, 2, 3].map((step) => ({
          step,
          trainingLoss: 1 / (step + 1),
          values: { 'train/accuracy': 0.5 + step / 10, 'loss/entropy': 2 - step / 10 },
        })),
      );
      await recordMetrics(
        s,
        run.id,
        'val',
        [0, 2].map((step) => ({ step, values: { 'val/accuracy': 0.4 + step / 10 } })),
      );
      // Rewards from trajectories: train groups at every step, a val group at steps 0 and 2.
      for (const step of [0, 1, 2, 3])
        await recordGroups(s, run.id, step, 'train', [
          { trajectories: [simple(0.2 + step / 10, `t${step}a`), simple(0.4 + step / 10, `t${step}b`)] },
        ]);
      for (const step of [0, 2])
        await recordGroups(s, run.id, step, 'val', [{ trajectories: [simple(0.1 + step / 10, `v${step}`)] }]);

      await page.goto(`${s.url}/runs/${run.id}`, { waitUntil: 'load' });
      const reward = page.getByRole('img', { name: 'avg reward', exact: true });
      await expect.poll(async () => (await seriesOf(page, 'avg reward')).val?.points, { timeout: 10_000 }).toBe(2);
      const rewards = await seriesOf(page, 'avg reward');
      expect(rewards.train).toEqual({ points: 4, last: [3, expect.closeTo(0.6, 6)] });
      expect(rewards.val).toEqual({ points: 2, last: [2, expect.closeTo(0.3, 6)] });
      // One x axis: the union of the steps of both splits.
      expect(await reward.getAttribute('data-points')).toBe('4');
      expect(await page.locator('figure.chart', { has: reward }).locator('.u-legend').innerText()).toMatch(
        /train[\s\S]*val/,
      );

      // A metric ART logs as train/accuracy and val/accuracy is one pick, both curves on one chart.
      const picker = page.getByRole('group', { name: 'metrics' });
      for (const key of ['reward', 'loss/train', 'loss/grad_norm', 'accuracy', 'loss/entropy'])
        expect(await picker.locator(`[data-metric="${key}"]`).count(), key).toBe(1);
      expect(await page.getByRole('img', { name: 'accuracy', exact: true }).count()).toBe(0);
      await picker.locator('[data-metric="accuracy"]').click();
      await expect.poll(async () => (await seriesOf(page, 'accuracy')).val?.points, { timeout: 10_000 }).toBe(2);
      expect(await seriesOf(page, 'accuracy')).toEqual({
        train: { points: 4, last: [3, expect.closeTo(0.8, 6)] },
        val: { points: 2, last: [2, expect.closeTo(0.6, 6)] },
      });
      // A train-only metric charts train alone; unpicking a metric removes its chart.
      await picker.locator('[data-metric="loss/entropy"]').click();
      await expect
        .poll(async () => Object.keys(await seriesOf(page, 'loss/entropy')), { timeout: 10_000 })
        .toEqual(['train']);
      await picker.locator('[data-metric="loss/grad_norm"]').click();
      await expect
        .poll(() => page.getByRole('img', { name: 'gradient norm', exact: true }).count(), { timeout: 10_000 })
        .toBe(0);

      // Live: a val point recorded while the page is open lands on the val curve, not the train one.
      await waitLive(page);
      await recordMetrics(s, run.id, 'val', [{ step: 4, values: { 'val/accuracy': 0.9 } }]);
      await expect
        .poll(async () => (await seriesOf(page, 'accuracy')).val, { timeout: 10_000 })
        .toEqual({ points: 3, last: [4, 0.9] });
      expect((await seriesOf(page, 'accuracy')).train.points).toBe(4);
      // And val trajectories logged later refresh the val reward curve (their statistics, no metrics event).
      await recordGroups(s, run.id, 4, 'val', [{ trajectories: [simple(0.75, 'v4')] }]);
      await expect
        .poll(async () => (await seriesOf(page, 'avg reward')).val, { timeout: 10_000 })
        .toEqual({ points: 3, last: [4, 0.75] });

      // The config, pretty-printed.
      const config = page.locator('details.config');
      await config.locator('summary').click();
      expect(await config.locator('pre').innerText()).toContain('"lora": {\n    "rank": 8\n  }');

      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-run-splits.png'), fullPage: true });
    },
  );

  it.skipIf(unavailable !== null)(
    browserTitle(
      "a 3,000-step history is drawn from the database's buckets: the chart's points and its min–max band are the API's, a spike at one step included",
    ),
    async () => {
      const { page } = browser;
      const run = await createRun(s, { projectName: 'long-band' });
      await advanceTo(s, run.id, 'TRAINING');
      const steps = 3000;
      for (let from = 0; from < steps; from += 1000)
        await recordMetrics(
          s,
          run.id,
          'train',
          Array.from({ length: 1000 }, (_, i) => {
            const step = from + i;
            // One spike and one dip in the loss, one spike in the gradient norm: each inside a bucket of 6.
            const trainingLoss = step === 1234 ? 50 : step === 2001 ? -5 : 1 / (1 + step);
            return { step, trainingLoss, values: { 'loss/grad_norm': step === 777 ? 40 : 1 + Math.sin(step) / 2 } };
          }),
        );
      type Named = Array<{ name: string; value: number | null }>;
      const api: {
        run: {
          metricHistory: Array<{
            step: number;
            trainingLoss: number | null;
            bucket: { firstStep: number; lastStep: number; count: number; min: Named; max: Named };
          }>;
        };
      } = await s.gql(
        `query($id: ID!) { run(id: $id) { metricHistory(maxPoints: 500) { step trainingLoss bucket { firstStep lastStep count min { name value } max { name value } } } } }`,
        { id: run.id },
      );
      const buckets = api.run.metricHistory;
      expect(buckets).toHaveLength(500);
      expect(buckets.every((b) => b.bucket.count === 6)).toBe(true);
      const of = (xs: Named, name: string) => xs.find((x) => x.name === name)!.value!;
      // The extremes of the API's buckets, as [the point's step, value]: what the band must reach.
      const extreme = (side: 'min' | 'max', name: string) =>
        buckets.reduce<[number, number] | null>((best, b) => {
          const v = of(b.bucket[side], name);
          return !best || (side === 'max' ? v > best[1] : v < best[1]) ? [b.step, v] : best;
        }, null);
      const containing = (step: number) =>
        buckets.find((b) => b.bucket.firstStep <= step && step <= b.bucket.lastStep)!.step;
      expect(extreme('max', 'trainingLoss')).toEqual([containing(1234), 50]);
      expect(extreme('min', 'trainingLoss')).toEqual([containing(2001), -5]);
      expect(extreme('max', 'values.loss/grad_norm')).toEqual([containing(777), 40]);

      await page.goto(`${s.url}/runs/${run.id}`, { waitUntil: 'load' });
      const loss = page.getByRole('img', { name: 'training loss', exact: true });
      await expect.poll(async () => Number(await loss.getAttribute('data-points')), { timeout: 15_000 }).toBe(500);
      expect(await seriesOf(page, 'training loss')).toEqual({
        train: { points: 500, last: [steps - 1, buckets[499].trainingLoss] },
      });
      expect(JSON.parse((await loss.getAttribute('data-band'))!)).toEqual({
        points: 500,
        lowest: extreme('min', 'trainingLoss'),
        highest: extreme('max', 'trainingLoss'),
      });
      const gradNorm = page.getByRole('img', { name: 'gradient norm', exact: true });
      await expect.poll(async () => Number(await gradNorm.getAttribute('data-points')), { timeout: 15_000 }).toBe(500);
      expect(JSON.parse((await gradNorm.getAttribute('data-band'))!)).toEqual({
        points: 500,
        lowest: extreme('min', 'values.loss/grad_norm'),
        highest: extreme('max', 'values.loss/grad_norm'),
      });
      expect(await page.locator('.note').innerText()).toContain('several steps');
    },
    60_000,
  );

  it.skipIf(unavailable !== null)(
    browserTitle(
      'a tool-calling trajectory recorded through recordTrajectoryGroups shows its calls (name, arguments) and their results, linked; long conversations collapse; additional histories open; split and reward filters narrow the list',
    ),
    async () => {
      const { page } = browser;
      const run = await createRun(s, { projectName: 'tools' });
      await advanceTo(s, run.id, 'COLLECTING');
      const agent = {
        messages_and_choices: [
          { role: 'system', content: 'You are an email agent. Use the tools.' },
          { role: 'user', content: 'Find the email from Alice about the invoice' },
          {
            finish_reason: 'tool_calls',
            index: 0,
            logprobs: null,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_search_1',
                  type: 'function',
                  function: { name: 'search_inbox', arguments: '{"query":"invoice","from":"alice@example.com"}' },
                },
              ],
            },
          },
          {
            role: 'tool',
            tool_call_id: 'call_search_1',
            content: '[{"id": "m42", "subject": "Invoice #7 for March"}]',
          },
          {
            finish_reason: 'stop',
            index: 0,
            logprobs: null,
            message: { role: 'assistant', content: 'Alice sent it: message m42, "Invoice #7 for March".' },
          },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'search_inbox',
              description: 'Search the inbox',
              parameters: { type: 'object', properties: { query: { type: 'string' } } },
            },
          },
        ],
        additional_histories: [
          {
            messages_and_choices: [
              { role: 'user', content: 'Summarize message m42 for the main agent' },
              { role: 'assistant', content: 'Sub-agent summary: an invoice of $120, due April 1.' },
            ],
          },
        ],
        reward: 0.9,
      };
      // A long conversation: 20 turns.
      const long = {
        messages_and_choices: Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0
            ? { role: 'user', content: `Turn ${i} question` }
            : { role: 'assistant', content: `Turn ${i} answer` },
        ),
        reward: 0.5,
      };
      await recordGroups(s, run.id, 0, 'train', [{ trajectories: [agent, long] }]);
      await recordGroups(s, run.id, 0, 'val', [{ trajectories: [simple(0.3, 'held-out'), simple(0.7, 'held-in')] }]);

      await page.goto(`${s.url}/runs/${run.id}`, { waitUntil: 'load' });
      const items = page.locator('ol.trajectories > li');
      await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(4);
      const first = items.first();
      expect(await first.getAttribute('data-reward')).toBe('0.9');

      // The call: its name and its arguments pretty-printed.
      const call = first.locator('[data-tool-call="call_search_1"]');
      expect(await call.locator('.tool-name').innerText()).toBe('search_inbox');
      expect(await call.locator('pre.tool-args').innerText()).toBe(
        '{\n  "query": "invoice",\n  "from": "alice@example.com"\n}',
      );
      // The result, shown as the result of that call, and the two linked both ways.
      const result = first.locator('[data-tool-result="call_search_1"]');
      expect(await result.locator('pre.tool-output').innerText()).toContain('Invoice #7 for March');
      expect(await result.locator('.tool-name').innerText()).toBe('search_inbox');
      const callId = await call.getAttribute('id');
      const resultId = await result.getAttribute('id');
      expect(await result.locator('a.tool-link').getAttribute('href')).toBe(`#${callId}`);
      expect(await call.locator('a.tool-link').getAttribute('href')).toBe(`#${resultId}`);
      expect(await first.innerText()).toContain('Alice sent it: message m42');
      expect(await first.locator('.tools-offered summary').innerText()).toContain('search_inbox');

      // The additional history is collapsed until opened.
      const extra = first.locator('details.extra-history');
      expect(await extra.locator('summary').innerText()).toContain('2 messages');
      expect(await extra.locator('.messages').isVisible()).toBe(false);
      await extra.locator('summary').click();
      await expect
        .poll(() => extra.locator('.messages').innerText(), { timeout: 5000 })
        .toContain('Sub-agent summary: an invoice of $120');

      // The long conversation: first and last turns, the middle behind a button.
      const longItem = items.filter({ hasText: 'Turn 0 question' });
      expect(await longItem.locator('.message').count()).toBe(6);
      expect(await longItem.innerText()).toContain('Turn 19 answer');
      expect(await longItem.innerText()).not.toContain('Turn 10 question');
      await longItem.getByRole('button', { name: 'show 14 more turns' }).click();
      await expect.poll(() => longItem.locator('.message').count(), { timeout: 5000 }).toBe(20);
      expect(await longItem.innerText()).toContain('Turn 10 question');

      // Filters: the val split alone, then a reward range within it.
      await page.selectOption('select[name="split"]', 'val');
      await expect
        .poll(() => items.evaluateAll((els) => els.map((e) => e.getAttribute('data-split'))), { timeout: 10_000 })
        .toEqual(['val', 'val']);
      await page.fill('input[name="rewardMin"]', '0.5');
      await page.click('form.trajectory-filters button[type="submit"]');
      await expect
        .poll(() => items.evaluateAll((els) => els.map((e) => e.getAttribute('data-reward'))), { timeout: 10_000 })
        .toEqual(['0.7']);
      await page.selectOption('select[name="split"]', '');
      await expect
        .poll(() => items.evaluateAll((els) => els.map((e) => e.getAttribute('data-reward'))), { timeout: 10_000 })
        .toEqual(['0.9', '0.7', '0.5']);

      await page.selectOption('select[name="split"]', 'train');
      await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(2);
      await first.screenshot({ path: join(ARTIFACTS, 'dashboard-tool-calls.png') });
    },
  );

  it.skipIf(unavailable !== null)(
    browserTitle('the checkpoints list shows every checkpoint with its metrics and marks the best by val/reward'),
    async () => {
      const { page } = browser;
      const run = await createRun(s, { projectName: 'checkpoints' });
      await advanceTo(s, run.id, 'TRAINING');
      await recordMetrics(
        s,
        run.id,
        'train',
        [0, 1, 2].map((step) => ({ step, values: { 'train/reward': 0.3 + step / 10 } })),
      );
      // Val is best at step 1, though train keeps rising: ART keeps the step with the best val/reward.
      await recordMetrics(s, run.id, 'val', [
        { step: 0, values: { 'val/reward': 0.4 } },
        { step: 1, values: { 'val/reward': 0.8 } },
        { step: 2, values: { 'val/reward': 0.6 } },
      ]);
      for (const step of [0, 1, 2]) {
        const res = await s.gql<{ recordCheckpoint: Payload }, unknown>(RECORD_CHECKPOINT, {
          runId: run.id,
          step,
          name: `email-agent@${step}`,
          uri: `wandb-artifact:///team/email-agent:step${step}`,
        });
        expect(res.recordCheckpoint.__typename, JSON.stringify(res)).toBe('RecordCheckpointPayload');
      }

      await page.goto(`${s.url}/runs/${run.id}`, { waitUntil: 'load' });
      const rows = page.locator('table.checkpoints tbody tr');
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
      expect(await page.locator('table.checkpoints tr[data-best="true"]').count()).toBe(1);
      const best = page.locator('table.checkpoints tr[data-best="true"]');
      expect(await best.getAttribute('data-step')).toBe('1');
      expect(await best.innerText()).toContain('email-agent@1');
      expect(await best.innerText()).toContain('best val/reward');
      expect(await best.innerText()).toContain('val/reward 0.800');
      expect(await best.innerText()).toContain('wandb-artifact:///team/email-agent:step1');
      expect(await page.locator('[data-testid="best-checkpoint"]').innerText()).toContain('Best by val/reward: step 1');
      await page.locator('table.checkpoints').screenshot({ path: join(ARTIFACTS, 'dashboard-checkpoints.png') });
    },
  );

  it.skipIf(unavailable !== null)(
    browserTitle(
      'the runs list and the run page show the latest reward that exists, also when the latest step has none, and follow trajectories recorded later, of a new split too',
    ),
    async () => {
      const { page } = browser;
      const run = await createRun(s, { projectName: 'latest-reward' });
      await advanceTo(s, run.id, 'TRAINING');
      await recordTrajectories(s, run.id, [trajectory(0, 0.25), trajectory(0, 0.35)]);
      // The latest step has a loss and no trajectories (yet).
      await recordMetrics(s, run.id, 'train', [
        { step: 0, trainingLoss: 0.9 },
        { step: 1, trainingLoss: 0.7 },
      ]);

      await page.goto(`${s.url}/`, { waitUntil: 'load' });
      const row = page.locator(`tr[data-run-id="${run.id}"]`);
      await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
      expect(await listReward(page, run.id)).toBe('0.300');

      await page.goto(`${s.url}/runs/${run.id}`, { waitUntil: 'load' });
      const fact = page.locator('dl.facts dt', { hasText: 'Avg reward' }).locator('xpath=following-sibling::dd[1]');
      await expect.poll(() => fact.innerText(), { timeout: 10_000 }).toBe('0.300');
      // Step 1's trajectories arrive after its metrics: the page follows without a reload.
      await waitLive(page);
      await recordTrajectories(s, run.id, [trajectory(1, 0.6), trajectory(1, 0.8)]);
      await expect.poll(() => fact.innerText(), { timeout: 10_000 }).toBe('0.700');
      await expect
        .poll(async () => (await seriesOf(page, 'avg reward')).train, { timeout: 10_000 })
        .toEqual({ points: 2, last: [1, expect.closeTo(0.7, 6)] });
      // A split the run did not have when the page loaded: its curve appears beside train.
      await recordGroups(s, run.id, 1, 'val', [{ trajectories: [simple(0.45, 'first-val')] }]);
      await expect
        .poll(async () => (await seriesOf(page, 'avg reward')).val, { timeout: 10_000 })
        .toEqual({ points: 1, last: [1, 0.45] });
      expect(await fact.innerText()).toBe('0.700');
    },
  );

  it.skipIf(unavailable !== null)(
    browserTitle(
      "a pipeline run's gradient norm chart has a point per trained step (ART's loss/grad_norm), its checkpoints are listed with the best by train/reward, and the list shows its reward",
    ),
    async () => {
      const { page } = browser;
      const res = await s.gql(CreatePipelineRun, {
        input: {
          modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
          projectName: 'pipeline-page',
          taskDescription: 'Answer customer questions about shipping',
          numExamples: 4,
          rolloutsPerGroup: 3,
          numEpochs: 1,
          pipeline: { groupsPerStep: 2 },
        },
      });
      const run = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
      let status = '';
      await waitFor(
        async () => {
          status = (await s.gql(PipelineRunDetails, { id: run.id })).run!.status;
          expect(['FAILED', 'CANCELLED']).not.toContain(status);
          return status === 'COMPLETED';
        },
        60_000,
        `the pipeline run to complete (last ${status})`,
      );

      await page.goto(`${s.url}/runs/${run.id}`, { waitUntil: 'load' });
      // 4 inputs, 2 groups a step, 1 epoch: 2 trained steps.
      await expect.poll(async () => (await seriesOf(page, 'gradient norm')).train?.points, { timeout: 10_000 }).toBe(2);
      expect((await seriesOf(page, 'training loss')).train.points).toBe(2);
      expect((await seriesOf(page, 'avg reward')).train.points).toBe(2);
      const rows = page.locator('table.checkpoints tbody tr');
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
      // No val history: the best step is by train/reward. History step N is the model that made step N's
      // rollouts, checkpoint N+1 the one trained on them, so the best step may be the base model's (step 0).
      const best = (
        await s.gql<{ run: { bestCheckpoint: { step: number; checkpoint: { step: number } | null } } }, unknown>(
          `query($id: ID!) { run(id: $id) { bestCheckpoint(metric: "train/reward") { step checkpoint { step } } } }`,
          { id: run.id },
        )
      ).run.bestCheckpoint;
      expect(await page.locator('[data-testid="best-checkpoint"]').innerText()).toContain(
        `Best by train/reward: step ${best.step}`,
      );
      const marked = page.locator('table.checkpoints tr[data-best="true"]');
      expect(await marked.count()).toBe(best.checkpoint ? 1 : 0);
      if (best.checkpoint) expect(await marked.getAttribute('data-step')).toBe(String(best.step));
      const fact = page.locator('dl.facts dt', { hasText: 'Avg reward' }).locator('xpath=following-sibling::dd[1]');
      const shown = await fact.innerText();
      expect(shown).toMatch(/^\d\.\d{3}$/);

      await page.goto(`${s.url}/`, { waitUntil: 'load' });
      const row = page.locator(`tr[data-run-id="${run.id}"]`);
      await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
      expect(await listReward(page, run.id)).toBe(shown);
    },
  );
});
