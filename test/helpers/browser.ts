// Drives a real headless Chromium (Debian's /usr/bin/chromium through playwright-core, which never
// downloads a browser of its own) against a test server. The machines have no internet, so every
// request to a host other than the loopback one is refused and recorded for the test to assert on.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

type Playwright = typeof import('playwright-core');

async function loadPlaywright(): Promise<Playwright | null> {
  try {
    return await import('playwright-core');
  } catch {
    return null;
  }
}

export interface BrowserAvailability {
  playwright: Playwright | null;
  /** Why a browser test cannot run here, or null when it can. */
  unavailable: string | null;
}

/** Finds out once whether both a Chromium binary and playwright-core are present. */
export async function browserAvailability(): Promise<BrowserAvailability> {
  const playwright = await loadPlaywright();
  const missing: string[] = [];
  if (!existsSync(CHROMIUM_PATH)) missing.push(`no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
  if (!playwright)
    missing.push('playwright-core is not installed (npm install --save-dev --save-exact playwright-core)');
  return { playwright, unavailable: missing.length ? missing.join('; ') : null };
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Every request (HTTP or WebSocket) the page tried to make to a non-loopback host; all were aborted. */
  externalRequests: string[];
  /** Uncaught exceptions thrown by the page's scripts. */
  pageErrors: string[];
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** True for URLs that leave the machine; data:, blob:, about: and the like never do. */
export function isExternal(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) return false;
  return !(LOOPBACK_HOSTS.has(parsed.hostname) || parsed.hostname.startsWith('127.'));
}

/** Launches headless Chromium with a new, throw-away profile, refusing and recording every external request. */
export async function launchBrowser(playwright: Playwright): Promise<BrowserSession> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'atelier-chromium-'));
  let context: BrowserContext;
  try {
    context = await playwright.chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 900 },
      timeout: 20_000,
    });
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
  const externalRequests: string[] = [];
  const pageErrors: string[] = [];
  const record = (line: string) => {
    if (!externalRequests.includes(line)) externalRequests.push(line);
  };

  await context.route(
    (url) => isExternal(url.href),
    async (route) => {
      record(`${route.request().method()} ${route.request().url()}`);
      await route.abort('blockedbyclient');
    },
  );
  await context.routeWebSocket(
    (url) => isExternal(url.href),
    (ws) => {
      record(`WebSocket ${ws.url()}`);
      void ws.close({ code: 1008, reason: 'external host blocked by the test' });
    },
  );
  // Belt and braces: anything the routes did not see (service workers, preloads) still gets recorded.
  context.on('request', (request) => {
    if (isExternal(request.url())) record(`${request.method()} ${request.url()}`);
  });

  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => pageErrors.push(String(error?.stack ?? error)));

  return {
    context,
    page,
    externalRequests,
    pageErrors,
    async close() {
      await context.close().catch(() => {});
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
