// `npm run demo`: Atelier with SIMULATED providers, for watching a pipeline run without a GPU.
// Starts the simulated OpenAI-compatible API and ART backend (test/fixtures, with small latencies
// so a run takes well under a minute), starts Atelier on its own database file (data/demo.sqlite,
// reset at each start, never the real one) with ATELIER_SIMULATED on, creates a customer-support
// pipeline run and prints the dashboard's address. Ctrl-C (or SIGTERM) stops everything.
// `npm run demo -- --agentic`: an HTTP-rollout run instead, multi-turn and tool-calling, against the
// example calculator environment (examples/http-env), which rewards each episode itself.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

import { createCalculatorEnv, serve as serveCalculator } from '../examples/http-env/calculator-env';
import { createApp, type App } from '../src/app';
import { loadConfig } from '../src/config';
import { startArtBackendSim, type ArtBackendSim } from '../test/fixtures/art-backend-sim';
import { startOpenAISim, type OpenAISim } from '../test/fixtures/openai-sim';
import { trajectoriesIn } from '../test/fixtures/openai-sim-replies';
import { stableHash, unitHash } from '../test/fixtures/sim-server';

/** Never DATABASE_URL: the demo must not touch real data. ATELIER_DEMO_DB moves it elsewhere (tests do). */
const DB_FILE = process.env.ATELIER_DEMO_DB ?? './data/demo.sqlite';
const PROVIDER_KEY = 'sk-demo-simulated-provider';
const RUN = {
  modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
  projectName: 'demo-support',
  taskDescription:
    'Answer customer-support questions for an online shop (shipping, returns, refunds, order changes) politely and precisely, quoting the exact policy: free shipping over $50, 30-day returns, refunds within 5 business days.',
  numExamples: 12,
  rolloutsPerGroup: 4,
  numEpochs: 3,
  learningRate: 1e-5,
  groupsPerStep: 2,
};
const TOTAL_STEPS = Math.ceil(RUN.numExamples / RUN.groupsPerStep) * RUN.numEpochs;
const AGENTIC = process.argv.includes('--agentic');
/** The agentic run's scenarios: arithmetic the calculator environment checks. */
const SUMS = [
  ['12 * 7 + 5', 89],
  ['(3 + 4) * 6', 42],
  ['100 - 58 / 2', 71],
  ['9 * 9 - 1', 80],
  ['15 * 15', 225],
  ['(20 - 8) * 3 + 4', 40],
  ['7 * 8 * 2', 112],
  ['1000 / 8 - 25', 100],
] as const;

const log = (line: string) => console.log(`[demo] SIMULATED · ${line}`);

const QUESTIONS = [
  'My order #4821 has not arrived after 9 days. Where is it?',
  'Can I return a pair of shoes I wore once indoors?',
  'How long does a refund take to reach my credit card?',
  'Do you ship to Canada, and how much does it cost?',
  'I ordered the wrong size. Can I change it before it ships?',
  'Is shipping free if my cart is $48.99?',
  'The jacket arrived with a torn seam. What can I do?',
  'Can I cancel an order I placed ten minutes ago?',
  'Why was I charged twice for the same order?',
  'Do you price-match if an item goes on sale after I buy it?',
  'How do I use a gift card together with a discount code?',
  'My tracking link says "label created" for 4 days. Is that normal?',
  'Can I return an item bought during the clearance sale?',
  'I moved. Can I change the delivery address of a shipped order?',
  'What happens if I am not home when the parcel is delivered?',
  'Can I exchange a gift without the receipt?',
];

const GOOD = [
  'I am sorry for the wait. Orders usually arrive within 3–5 business days; I have checked yours and it is with the carrier. If it has not arrived in 2 more days, reply here and we will send a replacement or refund you in full.',
  'Yes: you can return it within 30 days of delivery if it is unworn outdoors and in its box. Start the return from your order page; once it reaches us, the refund is issued within 5 business days.',
  'Refunds are issued within 5 business days of the return reaching us; your bank may take 2–3 more days to show it. You will get an email the moment it is sent.',
];
const OKAY = [
  'Thanks for reaching out. Returns are accepted within 30 days. Please contact us with your order number and we will help.',
  'Shipping is free on larger orders. Let us know your order number and we can check the details.',
];
const POOR = ['Please check our website for more information.', 'I am not sure, you may want to contact the carrier.'];

/** Replies that read like a support agent getting better over training, scored by a judge that notices. */
function makeRealistic(openai: OpenAISim): void {
  openai.setResponder('generate-inputs', (_req, ctx) => {
    const wanted = (ctx.defaultReply() as { inputs: unknown[] }).inputs.length;
    return {
      inputs: Array.from({ length: wanted }, (_, i) => ({
        input: QUESTIONS[(ctx.call * wanted + i) % QUESTIONS.length] + (i >= QUESTIONS.length ? ` (${i + 1})` : ''),
      })),
    };
  });
  openai.setResponder(
    'system-prompt',
    () =>
      'You are a friendly, precise support agent for an online shop. Quote the policy exactly: free shipping over $50, 30-day returns, refunds within 5 business days. Apologize once when something went wrong, then give the next step.',
  );
  let rollouts = 0;
  openai.setResponder('rollout', (req, ctx) => {
    // Tool-using turns (the agentic demo): the simulator's own policy calls the environment's tools.
    if (Array.isArray(req.tools) && req.tools.length > 0) return ctx.defaultReply();
    // Early in training most answers are vague; later most quote the policy.
    const progress = Math.min(1, rollouts++ / (TOTAL_STEPS * RUN.groupsPerStep * RUN.rolloutsPerGroup));
    const question = [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const u = unitHash(`${question}:${ctx.choice}:${rollouts}`);
    const pool = u < 0.15 + 0.7 * progress ? GOOD : u < 0.6 + 0.3 * progress ? OKAY : POOR;
    return pool[stableHash(`${question}:${rollouts}`) % pool.length];
  });
  openai.setResponder('judge', (req) => ({
    scores: trajectoriesIn(req).map(({ id, text }) => {
      const quality = GOOD.some((g) => text.includes(g.slice(0, 40)))
        ? 0.85
        : OKAY.some((g) => text.includes(g.slice(0, 40)))
          ? 0.5
          : 0.15;
      const score = Math.round(Math.min(1, Math.max(0, quality + (unitHash(text) - 0.5) * 0.2)) * 100) / 100;
      const explanation =
        score > 0.7
          ? 'Quotes the exact policy, apologizes once and gives a concrete next step.'
          : score > 0.35
            ? 'Polite and on topic, but vague: no policy numbers, asks the customer to write again.'
            : 'Deflects the question without answering it or naming a next step.';
      return { trajectory_id: id, explanation, score };
    }),
  }));
  // Simulated thinking time, so each stage is visible on the dashboard.
  openai.faults.setLatency(1500, 'generate-inputs');
  openai.faults.setLatency(250, 'rollout');
  openai.faults.setLatency(500, 'judge');
}

async function main(): Promise<void> {
  console.log('\n  ┌──────────────────────────────────────────────────────────────────┐');
  console.log('  │  SIMULATED DEMO: the model provider and the ART backend are       │');
  console.log('  │  simulators on this machine. No GPU, no real model, no training.  │');
  console.log('  └──────────────────────────────────────────────────────────────────┘\n');
  const openai = await startOpenAISim({ apiKey: PROVIDER_KEY });
  makeRealistic(openai);
  const calculator = AGENTIC ? await serveCalculator(createCalculatorEnv()) : undefined;
  if (calculator) log(`example calculator environment (HTTP rollouts) at ${calculator.url}`);
  let art: ArtBackendSim | undefined;
  let app: App | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    await app?.stop().catch(() => {});
    await art?.close().catch(() => {});
    await openai.close().catch(() => {});
    calculator?.server.closeAllConnections();
    calculator?.server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  art = await startArtBackendSim({ inferenceUrl: openai.url, inferenceApiKey: PROVIDER_KEY, gradientStepMs: 350 });
  art.faults.setPrepareDelay(1500);
  log(`simulated OpenAI-compatible API at ${openai.url}, simulated ART backend at ${art.url}`);

  mkdirSync(dirname(DB_FILE), { recursive: true });
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${DB_FILE}${suffix}`, { force: true });
  const config = loadConfig({
    PORT: process.env.PORT ?? '4000',
    HOST: process.env.HOST ?? '127.0.0.1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    DATABASE_URL: `sqlite:${DB_FILE}`,
    ART_BACKEND_URL: art.url,
    OPENAI_BASE_URL: openai.url,
    OPENAI_API_KEY: PROVIDER_KEY,
    GENERATOR_MODEL: 'simulated-generator',
    JUDGE_MODEL: 'simulated-judge',
    ATELIER_SIMULATED: '1',
    RETRY_BASE_MS: '50',
  });
  app = await createApp(config);
  let url: string;
  try {
    url = await app.start();
  } catch (err) {
    if (!/EADDRINUSE/.test(String(err))) throw err;
    log(`port ${config.port} is taken (a real Atelier?): using a free one`);
    url = await app.start(0);
  }
  log(`Atelier on ${url} with its own database ${DB_FILE} (reset at each demo start)`);

  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `mutation Demo($input: CreateTrainingRunInput!) {
        createTrainingRun(input: $input) { __typename ... on CreateTrainingRunPayload { run { id databaseId } } ... on Error { message } }
      }`,
      variables: {
        input: calculator
          ? {
              modelName: RUN.modelName,
              projectName: 'demo-agentic',
              taskDescription: 'Solve arithmetic with a calculator tool, then submit the number',
              systemPrompt: 'You are careful with numbers: check with the calculator before you answer.',
              rolloutsPerGroup: 4,
              numEpochs: 2,
              learningRate: RUN.learningRate,
              scenarios: SUMS.map(([expression, answer]) => ({
                inputText: `Compute ${expression}`,
                context: { answer },
              })),
              pipeline: {
                groupsPerStep: 2,
                temperature: 0.8,
                rollout: { kind: 'HTTP', url: calculator.url, maxTurns: 8 },
              },
            }
          : {
              modelName: RUN.modelName,
              projectName: RUN.projectName,
              taskDescription: RUN.taskDescription,
              numExamples: RUN.numExamples,
              rolloutsPerGroup: RUN.rolloutsPerGroup,
              numEpochs: RUN.numEpochs,
              learningRate: RUN.learningRate,
              pipeline: { groupsPerStep: RUN.groupsPerStep, temperature: 0.8 },
            },
      },
    }),
  });
  const body = (await res.json()) as {
    data?: { createTrainingRun: { __typename: string; message?: string; run?: { id: string; databaseId: number } } };
    errors?: unknown;
  };
  const created = body.data?.createTrainingRun;
  if (!created?.run) throw new Error(`could not create the demo run: ${JSON.stringify(body.errors ?? created)}`);

  console.log('');
  log(
    calculator
      ? `agentic pipeline run #${created.run.databaseId} created: multi-turn tool-calling episodes (HTTP rollouts) on "demo-agentic"`
      : `pipeline run #${created.run.databaseId} created: ${TOTAL_STEPS} training steps on "${RUN.projectName}"`,
  );
  console.log(`\n  Dashboard:  ${url}/`);
  console.log(`  This run:   ${url}/runs/${created.run.id}`);
  console.log(`  GraphiQL:   ${url}/graphql\n`);
  console.log('  It moves through GENERATING → COLLECTING → SCORING → TRAINING … → COMPLETED in about a minute.');
  console.log('  Ctrl-C stops the demo.\n');
}

main().catch((err) => {
  console.error(`[demo] ${err instanceof Error ? (err.stack ?? err.message) : err}`);
  process.exit(1);
});
