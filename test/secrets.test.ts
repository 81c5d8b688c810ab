// Provider keys and Atelier keys never appear in responses, logs, errors or stored run config:
// run config holding a credential is refused, an error echoing a key says [redacted], and a server
// logging at debug level while keys come and go writes none of them.
import { describe, expect, it, vi } from 'vitest';

import { parseKey } from '../src/auth/key-material';
import { isCredentialName } from '../src/domain/credentials';
import { createLogger } from '../src/logger';
import { createRedactor, secretsIn } from '../src/security/redact';
import { expectResult } from './helpers/results';
import { bearer, startServer, useTestServer } from './helpers/server';
import { via, viaHttp } from './helpers/transports';
import { CreateRun, ListRuns } from './operations';

const OPENAI = 'sk-proj-AbCdEf0123456789AbCdEf0123456789';
const FAKE_ATELIER = `atl_0123456789abcdef_${'Q'.repeat(43)}`;

describe('run config', () => {
  const s = useTestServer();

  it.each([
    ['a provider key by name', { openai: { apiKey: 'anything-at-all' } }, 'input.config.openai.apiKey'],
    ['an env-style name', { OPENAI_API_KEY: 'x-123' }, 'input.config.OPENAI_API_KEY'],
    ['a provider key by its shape', { judge: { headers: [OPENAI] } }, 'input.config.judge.headers.0'],
    ['an Atelier key', { note: `use ${FAKE_ATELIER}` }, 'input.config.note'],
    ['a password in a URL', { db: 'postgres://trainer:hunter2@db.internal/atelier' }, 'input.config.db'],
    ['a client secret', { oauth: { client_secret: 'abc' } }, 'input.config.oauth.client_secret'],
  ])('refuses %s, naming where it sits, and stores nothing', async (_name, config, field) => {
    const before = (await s.gql(ListRuns, {})).runs.totalCount;
    const res = await s.gql(CreateRun, {
      input: { mode: 'TRACKED', modelName: 'm', projectName: 'p', taskDescription: 't', config },
    });
    expect(expectResult(res.createTrainingRun, 'ValidationError').issues).toContainEqual(
      expect.objectContaining({ field, rule: 'no_credentials' }),
    );
    expect(JSON.stringify(res)).not.toContain(OPENAI);
    expect((await s.gql(ListRuns, {})).runs.totalCount).toBe(before);
  });

  it('accepts training settings that merely mention tokens and keys', async () => {
    const config = {
      max_tokens: 512,
      eos_token: '</s>',
      pad_token_id: 0,
      tokenizer: 'Qwen',
      key_metric: 'reward',
      monkey: 'business',
      maxTokens: 64,
    };
    const res = await s.gql(CreateRun, {
      input: { mode: 'TRACKED', modelName: 'm', projectName: 'p', taskDescription: 't', config },
    });
    expect(res.createTrainingRun).toMatchObject({ __typename: 'CreateTrainingRunPayload', run: { config } });
  });

  it('tells credential names from look-alikes', () => {
    for (const name of [
      'apiKey',
      'api_key',
      'OPENAI_API_KEY',
      'openaiApiKey',
      'secret',
      'clientSecret',
      'password',
      'hf_token',
      'accessToken',
      'authorization',
      'credentials',
    ])
      expect(isCredentialName(name), name).toBe(true);
    for (const name of [
      'max_tokens',
      'eos_token',
      'tokenizer',
      'key',
      'keyMetric',
      'secretary',
      'passwordless_mode',
      'token_budget',
    ])
      expect(isCredentialName(name), name).toBe(false);
  });
});

describe('errors', () => {
  const s = useTestServer({ keys: { admin: 'admin' } });

  it('redact a key echoed back in an error message, on every transport', async () => {
    for (const transport of ['http', 'sse', 'ws'] as const) {
      const outcome = await via(
        transport,
        s.url,
        'query($id: ID!) { run(id: $id) { id } }',
        { id: s.keys.admin },
        s.keys.admin,
      );
      const text = JSON.stringify(outcome.result);
      expect(text, transport).not.toContain(s.keys.admin);
      expect(text, transport).toContain('[redacted]');
    }
    const typed = await viaHttp(
      s.url,
      'query($n: Int) { runs(first: $n) { totalCount } }',
      { n: OPENAI },
      bearer(s.keys.admin),
    );
    expect(JSON.stringify(typed.result)).not.toContain(OPENAI);
  });
});

describe('logs', () => {
  it('redact configured secrets and anything shaped like a credential', () => {
    const lines: string[] = [];
    const spy = vi
      .spyOn(console, 'error')
      .mockImplementation(
        (...args: unknown[]) =>
          void lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')),
      );
    try {
      const config = {
        providers: { judge: { apiKey: 'plain-secret-value-42' } },
        redisUrl: 'redis://:p4ssw0rd@cache:6379',
      };
      const logger = createLogger('debug', createRedactor(secretsIn(config)));
      logger.error('calling the judge with plain-secret-value-42 failed', new Error(`401 for ${OPENAI}`));
      logger.info('config', config);
      logger.warn(`presented Bearer ${FAKE_ATELIER} from redis://:p4ssw0rd@cache:6379`);
    } finally {
      spy.mockRestore();
    }
    const all = lines.join('\n');
    for (const secret of ['plain-secret-value-42', OPENAI, FAKE_ATELIER, 'p4ssw0rd']) expect(all).not.toContain(secret);
    expect(all).toContain('[redacted]');
  });

  it('of a server at debug level hold no API key, whatever requests come', async () => {
    const lines: string[] = [];
    const capture = (...args: unknown[]) =>
      void lines.push(
        args
          .map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a)))
          .join(' '),
      );
    const spies = [
      vi.spyOn(console, 'error').mockImplementation(capture),
      vi.spyOn(console, 'log').mockImplementation(capture),
      vi.spyOn(console, 'warn').mockImplementation(capture),
    ];
    const s = await startServer({ logLevel: 'debug', keys: { admin: 'admin' } });
    try {
      const key = s.keys.admin;
      await viaHttp(s.url, '{ viewer { keyName } }', {}, bearer(key));
      await viaHttp(s.url, '{ viewer { keyName } }', {}, bearer(`${key}x`));
      await viaHttp(s.url, '{ viewer { keyName } }', {}, bearer(FAKE_ATELIER));
      await via('ws', s.url, '{ viewer { keyName } }', {}, key);
      await via('sse', s.url, '{ nope }', {}, key);
      await s.app.db.close();
      await viaHttp(s.url, '{ runs(first: 1) { totalCount } }', {}, bearer(key));
      expect(lines.length).toBeGreaterThan(0);
      const all = lines.join('\n');
      expect(all).not.toContain(parseKey(key)!.secret);
      expect(all).not.toContain(FAKE_ATELIER);
    } finally {
      spies.forEach((spy) => spy.mockRestore());
      await s.stop();
    }
  });
});
