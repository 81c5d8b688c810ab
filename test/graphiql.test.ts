// GraphiQL at GET /graphql: served whole from the server (the machines have no internet, and yoga's
// default page loads from a CDN), opening with the example query. When a Chromium and playwright-core
// are present, a real browser renders it, runs the query and shows the data, touching no outside host.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { GRAPHIQL_DEFAULT_QUERY } from '../src/graphql/example-operations';
import { browserAvailability, isExternal, launchBrowser } from './helpers/browser';
import { createRun } from './helpers/builders';
import { expectResult } from './helpers/results';
import { bearer, useTestServer } from './helpers/server';
import { CreateRun, TransitionRun } from './operations';

const s = useTestServer();

/** The src/href of every <script> and <link> tag, ignoring the text inside inline scripts. */
function resourceUrls(html: string): { tag: string; url: string }[] {
  const found: { tag: string; url: string }[] = [];
  const attr = (attrs: string, name: string) =>
    attrs.match(new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i'));
  const scriptTag = /<script\b([^>]*)>[\s\S]*?<\/script\s*>/gi;
  for (const m of html.matchAll(scriptTag)) {
    const src = attr(m[1], 'src');
    if (src) found.push({ tag: 'script', url: src[1] ?? src[2] ?? src[3] });
  }
  const outsideScripts = html.replace(scriptTag, '');
  for (const m of outsideScripts.matchAll(/<link\b([^>]*)>/gi)) {
    const href = attr(m[1], 'href');
    if (href) found.push({ tag: 'link', url: href[1] ?? href[2] ?? href[3] });
  }
  return found;
}

describe('GraphiQL page', () => {
  it('is served whole by the server: no script or stylesheet from another host, and it opens on the example query', async () => {
    const res = await fetch(s.graphqlUrl, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<title>Atelier</title>');

    const resources = resourceUrls(html);
    const outside = resources.filter(({ url }) => {
      if (/^(data|blob):/i.test(url)) return false;
      if (url.startsWith('//')) return true; // protocol-relative: another host
      if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return false; // relative to the server
      return new URL(url).origin !== new URL(s.url).origin;
    });
    expect(outside, `GraphiQL loads from outside the server: ${JSON.stringify(outside)}`).toEqual([]);
    // Nothing in the inline stylesheet pulls CSS or fonts from the internet either.
    const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)].map((m) => m[1]).join('\n');
    const cssUrls = [...styles.matchAll(/(?:@import\s+|url\(\s*)["']?([^"')\s;]+)/gi)]
      .map((m) => m[1])
      .filter(isExternal);
    expect(cssUrls, `GraphiQL's CSS loads from outside the server: ${cssUrls.join(', ')}`).toEqual([]);

    // The options are embedded as JSON, so the default query appears JSON-escaped.
    expect(html).toContain(JSON.stringify(GRAPHIQL_DEFAULT_QUERY));
    expect(html).toContain('query LatestRuns');
  });
});

const { playwright, unavailable } = await browserAvailability();

describe('GraphiQL in a real browser', () => {
  const title = unavailable
    ? `SKIPPED, browser unavailable: ${unavailable}`
    : 'renders offline in headless Chromium, runs LatestRuns and shows the runs, requesting nothing outside the machine';

  it.skipIf(unavailable !== null)(title, async () => {
    const run = await createRun(s, { projectName: 'graphiql-check' });
    const browser = await launchBrowser(playwright!);
    try {
      const { page } = browser;
      const response = await page.goto(s.graphqlUrl, { waitUntil: 'load', timeout: 20_000 });
      expect(response?.status()).toBe(200);

      const queryEditor = page.locator('.graphiql-query-editor');
      await expect
        .poll(async () => ((await queryEditor.count()) ? queryEditor.first().innerText() : ''), { timeout: 15_000 })
        .toContain('LatestRuns');

      await page.locator('.graphiql-execute-button').first().click();
      const resultPane = page.locator('.graphiql-response');
      await expect.poll(() => resultPane.first().innerText(), { timeout: 15_000 }).toContain('"runs"');
      const result = await resultPane.first().innerText();
      expect(result).toContain('"totalCount"');
      expect(result).not.toContain('"errors"');
      // The run made above is the newest, so it is on the first screen of the result.
      expect(result).toContain(run.id);

      const screenshot = join(mkdtempSync(join(tmpdir(), 'atelier-graphiql-')), 'graphiql.png');
      await page.screenshot({ path: screenshot });
      console.log(`GraphiQL screenshot: ${screenshot}`);

      expect(
        browser.externalRequests,
        `GraphiQL tried to reach outside the machine:\n${browser.externalRequests.join('\n')}`,
      ).toEqual([]);
      expect(browser.pageErrors, `GraphiQL threw in the page:\n${browser.pageErrors.join('\n')}`).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

// Issue #12 item 4: GraphiQL runs subscriptions over graphql-ws and sends its Headers tab in each
// subscribe message's extensions.headers (connection_init carries `{}`), so with keys required a
// subscription typed in GraphiQL must be authenticated by that header.
describe('GraphiQL subscriptions when keys are required', () => {
  const keyed = useTestServer({ keys: { reader: 'read', writer: 'write' } });
  const title = unavailable
    ? `SKIPPED, browser unavailable: ${unavailable}`
    : 'a runStatusChanged subscription with the key in the Headers tab shows the transition made through the API';

  it.skipIf(unavailable !== null)(title, async () => {
    const made = await keyed.gql(
      CreateRun,
      { input: { mode: 'TRACKED', modelName: 'm', projectName: 'graphiql-keys', taskDescription: 't' } },
      bearer(keyed.keys.writer),
    );
    const runId = expectResult(made.createTrainingRun, 'CreateTrainingRunPayload').run.id;
    const browser = await launchBrowser(playwright!);
    // What GraphiQL actually sends over the WebSocket, for the assertions below and for anyone debugging.
    const sent: string[] = [];
    browser.page.on('websocket', (ws) => ws.on('framesent', (frame) => sent.push(String(frame.payload))));
    try {
      const { page } = browser;
      const query = `subscription { runStatusChanged(runId: "${runId}") { eventId from to run { id } } }`;
      const response = await page.goto(`${keyed.graphqlUrl}?query=${encodeURIComponent(query)}`, {
        waitUntil: 'load',
        timeout: 20_000,
      });
      expect(response?.status()).toBe(200);
      await expect
        .poll(
          async () =>
            (await page.locator('.graphiql-query-editor').count())
              ? page.locator('.graphiql-query-editor').first().innerText()
              : '',
          { timeout: 15_000 },
        )
        .toContain('runStatusChanged');

      // Type the key into the Headers tab, as a person would (insertText: Monaco would auto-close typed quotes and braces).
      await page.locator('button[data-name="headers"]').click();
      const headersEditor = page.locator('.monaco-editor[data-uri$="-request-headers.json"]');
      await headersEditor.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText(`{"Authorization": "Bearer ${keyed.keys.reader}"}`);
      await expect.poll(() => headersEditor.innerText(), { timeout: 5_000 }).toContain(keyed.keys.reader);

      await page.locator('.graphiql-execute-button').first().click();
      const resultPane = page.locator('.graphiql-response').first();
      // Live once the server tracks it under the key; a refusal shows in the result pane instead.
      await expect
        .poll(async () => keyed.app.sessions.count() > 0 || (await resultPane.innerText()).includes('errors'), {
          timeout: 15_000,
        })
        .toBe(true);
      expect(await resultPane.innerText()).not.toContain('UNAUTHENTICATED');

      await keyed.gql(TransitionRun, { runId, to: 'GENERATING' }, bearer(keyed.keys.writer));
      await expect.poll(() => resultPane.innerText(), { timeout: 15_000 }).toContain('"GENERATING"');
      const result = await resultPane.innerText();
      expect(result).toContain('"PENDING"');
      expect(result).not.toContain('"errors"');

      // The evidence: connection_init carries no credentials; the subscribe message carries the Headers tab.
      const messages = sent.map(
        (m) => JSON.parse(m) as { type: string; payload?: { extensions?: { headers?: Record<string, string> } } },
      );
      expect(messages.find((m) => m.type === 'connection_init')?.payload).toEqual({});
      expect(messages.find((m) => m.type === 'subscribe')?.payload?.extensions?.headers).toEqual({
        Authorization: `Bearer ${keyed.keys.reader}`,
      });

      expect(browser.externalRequests).toEqual([]);
      expect(browser.pageErrors, `GraphiQL threw in the page:\n${browser.pageErrors.join('\n')}`).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

// Issue #23 item 10: GraphiQL kept its Headers tab, and so the API key pasted there, in localStorage
// (`graphiql:headers`), across browser restarts. It now keeps it in the tab's sessionStorage, as the
// dashboard keeps its key, and wipes what an older page left in localStorage.
describe('GraphiQL and the API key', () => {
  const keyed = useTestServer({ keys: { reader: 'read' } });
  const title = unavailable
    ? `SKIPPED, browser unavailable: ${unavailable}`
    : 'keeps the Headers tab in the tab’s sessionStorage only, never in localStorage, and clears what an older page left there';

  it.skipIf(unavailable !== null)(title, async () => {
    const key = keyed.keys.reader;
    const browser = await launchBrowser(playwright!);
    try {
      const { page, context } = browser;
      await page.goto(keyed.graphqlUrl, { waitUntil: 'load', timeout: 20_000 });
      const queryEditor = page.locator('.graphiql-query-editor');
      await expect
        .poll(async () => ((await queryEditor.count()) ? queryEditor.first().innerText() : ''), { timeout: 15_000 })
        .toContain('LatestRuns');
      await page.locator('button[data-name="headers"]').click();
      const headersEditor = page.locator('.monaco-editor[data-uri$="-request-headers.json"]');
      await headersEditor.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText(`{"Authorization": "Bearer ${key}"}`);
      await page.locator('.graphiql-execute-button').first().click();
      const resultPane = page.locator('.graphiql-response').first();
      await expect.poll(() => resultPane.innerText(), { timeout: 15_000 }).toContain('"totalCount"');
      expect(await resultPane.innerText()).not.toContain('UNAUTHENTICATED');

      // GraphiQL stores the headers (debounced): once they are stored somewhere, it must be this tab's sessionStorage only.
      const stored = () =>
        page.evaluate(() => ({
          session: JSON.stringify({ ...sessionStorage }),
          local: JSON.stringify({ ...localStorage }),
          cookie: document.cookie,
        }));
      await expect.poll(async () => JSON.stringify(await stored()).includes(key), { timeout: 15_000 }).toBe(true);
      const { session, local, cookie } = await stored();
      expect(local, 'the key is in localStorage').not.toContain(key);
      expect(cookie).toBe('');
      expect(session).toContain(key);

      // A reload of the same tab keeps the Headers tab, and clears what an older page left in localStorage.
      await page.evaluate(() => localStorage.setItem('graphiql:headers', '{"Authorization": "Bearer atl_old_leaked"}'));
      await page.reload({ waitUntil: 'load' });
      await page.locator('button[data-name="headers"]').click();
      await expect.poll(() => headersEditor.innerText(), { timeout: 15_000 }).toContain(key);
      const after = await stored();
      expect(after.local).not.toContain('atl_');
      expect(Object.keys(JSON.parse(after.local) as object).filter((k) => k.startsWith('graphiql:'))).toEqual([]);

      // Another tab starts without it.
      const other = await context.newPage();
      await other.goto(keyed.graphqlUrl, { waitUntil: 'load', timeout: 20_000 });
      await expect
        .poll(async () => ((await other.locator('.graphiql-query-editor').count()) ? 'ready' : ''), {
          timeout: 15_000,
        })
        .toBe('ready');
      const otherStorage = await other.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
      expect(otherStorage).not.toContain(key);
      expect(JSON.stringify(await page.evaluate(() => ({ ...localStorage })))).not.toContain(key);

      expect(browser.externalRequests).toEqual([]);
      expect(browser.pageErrors, `GraphiQL threw in the page:\n${browser.pageErrors.join('\n')}`).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
