// Issue #12 item 5 (resume): over SSE in distinct connections mode each runStatusChanged event goes
// out with its eventId as the SSE `id:` line, and a client reconnecting with `Last-Event-ID` (what
// EventSource sends by itself) resumes after it, as with afterEventId. Raw HTTP, so the lines are visible.
import { describe, expect, it } from 'vitest';

import { expectResult } from './helpers/results';
import { bearer, useTestServer } from './helpers/server';
import { CreateRun, TransitionRun } from './operations';

const s = useTestServer({ keys: { reader: 'read', writer: 'write' } });

interface SseEvent {
  event?: string;
  id?: string;
  data?: string;
}

/** An open text/event-stream response, read event by event (comments skipped). */
async function openStream(
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string> = {},
  method: 'GET' | 'POST' = 'POST',
) {
  const controller = new AbortController();
  const url =
    method === 'GET'
      ? `${s.graphqlUrl}?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}`
      : s.graphqlUrl;
  const res = await fetch(url, {
    method,
    headers: {
      accept: 'text/event-stream',
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...bearer(s.keys.reader),
      ...headers,
    },
    body: method === 'POST' ? JSON.stringify({ query, variables }) : undefined,
    signal: controller.signal,
  });
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(timeoutMs = 5000): Promise<SseEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = {};
          for (const line of block.split('\n')) {
            const m = /^(event|id|data): ?(.*)$/.exec(line);
            if (m) event[m[1] as keyof SseEvent] = m[2];
          }
          if (event.event || event.data || event.id) return event;
        }
        let timer: NodeJS.Timeout | undefined;
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>(
            (_, reject) =>
              (timer = setTimeout(() => reject(new Error('no SSE event in time')), Math.max(1, deadline - Date.now()))),
          ),
        ]).finally(() => clearTimeout(timer));
        if (chunk.done) throw new Error('the stream ended');
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}

const WATCH =
  'subscription($runId: ID, $afterEventId: String) { runStatusChanged(runId: $runId, afterEventId: $afterEventId) { eventId from to } }';

async function newRun(): Promise<string> {
  const res = await s.gql(
    CreateRun,
    { input: { mode: 'TRACKED', modelName: 'm', projectName: 'sse-resume', taskDescription: 't' } },
    bearer(s.keys.writer),
  );
  return expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run.id;
}

const move = async (runId: string, to: 'GENERATING' | 'COLLECTING' | 'SCORING' | 'TRAINING') => {
  const res = await s.gql(TransitionRun, { runId, to }, bearer(s.keys.writer));
  return expectResult(res.transitionRun, 'TransitionRunPayload').run;
};

const toOf = (e: SseEvent) =>
  (JSON.parse(e.data!) as { data: { runStatusChanged: { to: string; eventId: string } } }).data.runStatusChanged;

describe('SSE ids and Last-Event-ID (distinct connections mode)', () => {
  it('sends each runStatusChanged event with its eventId as the SSE id, and resumes after Last-Event-ID (POST and GET)', async () => {
    const runId = await newRun();
    const first = await openStream(WATCH, { runId });
    await new Promise((r) => setTimeout(r, 200)); // subscribed (the first ping has gone out)
    await move(runId, 'GENERATING');
    const seen = await first.next();
    expect(seen.event).toBe('next');
    expect(toOf(seen).to).toBe('GENERATING');
    expect(seen.id).toBe(toOf(seen).eventId);
    first.close();

    // Missed while disconnected.
    await move(runId, 'COLLECTING');
    await move(runId, 'SCORING');

    const resumed = await openStream(WATCH, { runId }, { 'last-event-id': seen.id! });
    const replayed = [await resumed.next(), await resumed.next()];
    expect(replayed.map((e) => toOf(e).to)).toEqual(['COLLECTING', 'SCORING']);
    for (const e of replayed) expect(e.id).toBe(toOf(e).eventId);
    resumed.close();

    // EventSource reconnects with GET: the same there.
    const viaGet = await openStream(WATCH, { runId }, { 'last-event-id': replayed[0].id! }, 'GET');
    const again = await viaGet.next();
    expect([toOf(again).to, again.id]).toEqual(['SCORING', replayed[1].id]);
    viaGet.close();
  });

  it('lets an explicit afterEventId win over Last-Event-ID, and ignores a Last-Event-ID that is not an eventId', async () => {
    const runId = await newRun();
    await move(runId, 'GENERATING');
    const b = await move(runId, 'COLLECTING');
    const idOf = (to: string) => b.statusHistory.find((t) => t.to === to)!.eventId;
    // Last-Event-ID alone would replay GENERATING first.
    const explicit = await openStream(
      WATCH,
      { runId, afterEventId: idOf('GENERATING') },
      { 'last-event-id': idOf('PENDING') },
    );
    expect(toOf(await explicit.next()).to).toBe('COLLECTING');
    explicit.close();

    const bogus = await openStream(WATCH, { runId }, { 'last-event-id': 'not-an-id' });
    await new Promise((r) => setTimeout(r, 200));
    await move(runId, 'SCORING');
    const live = await bogus.next();
    expect(live.event).toBe('next');
    expect(toOf(live).to).toBe('SCORING'); // live only, nothing replayed, no error
    bogus.close();
  });
});
