// The dashboard shows an agentic PIPELINE run's tool calls, in a real Chromium: a multi-turn, tool-calling
// HTTP run (the calculator environment, the simulated inference server calling its tools) trains to the
// end, and its run page shows each trajectory's calls (name, arguments) with their results, linked by
// tool_call_id, and the tools offered. Skips, saying why, without Chromium or playwright-core.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHttpEnvSim, type HttpEnvSim } from './fixtures/http-env-sim';
import { waitDone } from './fixtures/pipeline-bed';
import { browserAvailability, launchBrowser, type BrowserSession } from './helpers/browser';
import { ensureDashboardBuilt } from './helpers/dashboard-bundle';
import { pipelineConfig, startSims, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';
import { AgenticTrajectories, CreatePipelineRun } from './operations';

const { playwright, unavailable } = await browserAvailability();
const title = (what: string) => (unavailable ? `SKIPPED, browser unavailable: ${unavailable}` : what);

let sims: Sims | undefined;
let env: HttpEnvSim | undefined;
let browser: BrowserSession | undefined;
beforeAll(async () => {
  if (unavailable) return;
  ensureDashboardBuilt();
  [sims, env] = await Promise.all([startSims(), startHttpEnvSim()]);
  browser = await launchBrowser(playwright!);
}, 120_000);
afterAll(async () => {
  if (browser) {
    expect(browser.externalRequests).toEqual([]);
    expect(browser.pageErrors, `the dashboard threw:\n${browser.pageErrors.join('\n')}`).toEqual([]);
    await browser.close();
  }
  await env?.close();
  await sims?.close();
});
const s = useTestServer(() => (sims ? { pipeline: pipelineConfig(sims) } : {}));

describe('an agentic run in the dashboard', () => {
  it.skipIf(unavailable !== null)(
    title("a multi-turn tool-calling PIPELINE run's page shows every call with its arguments and its result"),
    async () => {
      const res = await s.gql(CreatePipelineRun, {
        input: {
          modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
          projectName: 'agentic-page',
          taskDescription: 'Solve arithmetic with a calculator',
          rolloutsPerGroup: 2,
          numEpochs: 1,
          scenarios: [{ inputText: 'Compute 12 * 7 + 5', context: { answer: 89 } }],
          pipeline: { groupsPerStep: 1, rollout: { kind: 'HTTP', url: env!.url, maxTurns: 6 } },
        },
      });
      const run = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
      const done = await waitDone(s, run.id, 60_000);
      expect(done.error).toBeNull();
      expect(done.status).toBe('COMPLETED');
      const stored = (await s.gql(AgenticTrajectories, { runId: run.id })).trajectories.edges.map((e) => e.node);
      expect(stored).toHaveLength(2);

      const { page } = browser!;
      await page.goto(`${s.url}/runs/${run.id}`, { waitUntil: 'load' });
      const items = page.locator('ol.trajectories > li');
      await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(2);
      for (let i = 0; i < 2; i++) {
        const item = items.nth(i);
        // Long conversations show their first and last turns: open the middle.
        const more = item.getByRole('button', { name: /^show \d+ more turns$/ });
        if (await more.count()) await more.click();
        const shown = await item
          .locator('[data-tool-call]')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-tool-call')));
        const t = stored.find((x) => x.messages.flatMap((m) => m.toolCalls ?? []).some((c) => c.id === shown[0]))!;
        expect(t, `a stored trajectory with call ${shown[0]}`).toBeDefined();
        const calls = t.messages.flatMap((m) => m.toolCalls ?? []);
        expect(calls.length).toBeGreaterThanOrEqual(3);
        expect(shown).toEqual(calls.map((c) => c.id));
        for (const c of calls) {
          const call = item.locator(`[data-tool-call="${c.id}"]`);
          expect(await call.locator('.tool-name').innerText()).toBe(c.name);
          expect(JSON.parse(await call.locator('pre.tool-args').innerText())).toEqual(JSON.parse(c.arguments));
          const output = t.messages.find((m) => m.role === 'tool' && m.toolCallId === c.id)!.content;
          const result = item.locator(`[data-tool-result="${c.id}"]`);
          expect(await result.locator('.tool-name').innerText()).toBe(c.name);
          expect(await result.locator('pre.tool-output').innerText()).toBe(output);
        }
        expect(await item.locator('.tools-offered summary').innerText()).toContain('calculate');
      }
    },
    120_000,
  );
});
