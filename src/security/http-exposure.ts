// What a browser and the outside world may see: CORS (closed unless origins are configured; pages
// on localhost during development), introspection and field suggestions (off in production unless
// enabled), and two guards against web pages driving a local Atelier: form posts (which need no
// CORS preflight) are refused, WebSocket upgrades from disallowed origins are refused, and while
// Atelier runs open it answers only requests addressed to a loopback host (DNS rebinding).
import type { IncomingMessage } from 'node:http';

import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

import { isLoopbackHost } from '../auth/policy';
import type { HttpExposureConfig } from '../config';

type Origins = HttpExposureConfig['corsOrigins'];

const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127(?:\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/i;

export function isAllowedOrigin(origin: string, origins: Origins): boolean {
  if (origins === '*') return true;
  if (origins === 'loopback') return LOOPBACK_ORIGIN.test(origin);
  return origins.includes(origin);
}

/** Yoga's `cors` option: CORS headers only for allowed origins, never with credentials (keys travel in headers). */
export function corsPolicy(origins: Origins) {
  return (request: Request) => {
    const origin = request.headers.get('origin');
    if (!origin || !isAllowedOrigin(origin, origins)) return false as const;
    return {
      origin: [origin],
      // PUT, DELETE and the stream token: graphql-sse's single connection mode; last-event-id: SSE resume.
      methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['authorization', 'content-type', 'accept', 'last-event-id', 'x-graphql-event-stream-token'],
      exposedHeaders: ['retry-after'],
      credentials: false,
      maxAge: 600,
    };
  };
}

/** With introspection off, clients learn the schema neither from __schema nor from "Did you mean …?" hints. */
export function useIntrospection(enabled: boolean): Plugin[] {
  if (enabled) return [];
  return [
    {
      onValidate({ addValidationRule }) {
        addValidationRule(NoSchemaIntrospectionCustomRule);
      },
    },
    blockFieldSuggestionsPlugin() as Plugin,
  ];
}

function refusal(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i;

function hostOf(hostHeader: string | null | undefined): string {
  if (!hostHeader) return '';
  const h = hostHeader.trim();
  return h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d+$/, '');
}

const OPEN_HOST_MESSAGE =
  'Atelier runs open (no API keys) and answers only requests addressed to localhost; make an API key to serve it under another name';

/** Refuses browser-only request shapes; `isOpen` tells whether keys are currently not required. */
export function useBrowserGuard(isOpen: () => Promise<boolean>): Plugin {
  return {
    async onRequest({ request, endResponse }) {
      if (request.method === 'POST' && FORM_TYPES.test(request.headers.get('content-type') ?? '')) {
        endResponse(
          refusal(
            415,
            'UNSUPPORTED_MEDIA_TYPE',
            'send GraphQL as application/json (form posts are refused: a web page could send them without asking)',
          ),
        );
        return;
      }
      const host = hostOf(request.headers.get('host'));
      if (host && !isLoopbackHost(host) && (await isOpen())) endResponse(refusal(403, 'FORBIDDEN', OPEN_HOST_MESSAGE));
    },
  };
}

/** ws `verifyClient`: a browser page may open a WebSocket to any host, so check its Origin (and the Host while open). */
export function verifyUpgrade(origins: Origins, isOpen: () => Promise<boolean>) {
  return (
    info: { origin: string; req: IncomingMessage },
    done: (ok: boolean, code?: number, message?: string) => void,
  ) => {
    if (info.origin && !isAllowedOrigin(info.origin, origins)) return done(false, 403, 'origin not allowed');
    const host = hostOf(info.req.headers.host);
    if (!host || isLoopbackHost(host)) return done(true);
    isOpen().then(
      (open) => (open ? done(false, 403, OPEN_HOST_MESSAGE) : done(true)),
      () => done(false, 500, 'could not check access'),
    );
  };
}
