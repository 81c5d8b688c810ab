// API keys: make one (shown once), list, revoke, and check a presented key. Writes go through the
// serialized write queue like every other write; last_used_at is written at most once per interval
// per key, so authenticated reads do not turn into writes.
import { IsNull } from 'typeorm';

import type { Database } from '../db/data-source';
import { ApiKeyEntity, type ApiKeyRow } from '../db/entities';
import { ProjectScope } from '../domain/project-scope';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { Logger } from '../logger';
import { runRules } from '../runs/run.rules';
import { ApiKeysRepo, isActiveNameConflict, lockKeyManagement } from './api-keys.repo';
import { generateKey, hashSecret, parseKey, secretMatches } from './key-material';
import { isScope, type Scope } from './scopes';

export interface ApiKey {
  keyId: string;
  name: string;
  scope: Scope;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** The projects the key may reach (sorted); null: every project. */
  projects: string[] | null;
}

export type Verification = { ok: true; key: ApiKey } | { ok: false; problem: string };

export const KEY_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._:@/-]{0,99}$/;

export function apiKeyFromRow(row: ApiKeyRow): ApiKey {
  return {
    keyId: row.keyId,
    name: row.name,
    scope: isScope(row.scope) ? row.scope : 'read',
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
    projects: projectsFromColumn(row.projects),
  };
}

/** Projects a key may name at most. */
export const MAX_KEY_PROJECTS = 100;

/** The stored list, read failing closed: anything but a list of strings reaches no project. */
function projectsFromColumn(stored: string | null): string[] | null {
  if (stored === null) return null;
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** A key's projects, checked by the rule a run's projectName follows; null (every project) stays null. */
export function validateKeyProjects(projects: readonly string[] | null | undefined): string[] | null {
  if (projects == null) return null;
  const issues = [];
  if (projects.length === 0)
    issues.push({
      field: 'projects',
      rule: 'too_small',
      message: 'must name at least one project (leave projects out for a key that reaches every project)',
    });
  if (projects.length > MAX_KEY_PROJECTS)
    issues.push({ field: 'projects', rule: 'too_big', message: `must name at most ${MAX_KEY_PROJECTS} projects` });
  projects.slice(0, MAX_KEY_PROJECTS).forEach((name, i) => {
    const checked = runRules.name.safeParse(name);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const rule = (issue as { params?: { rule?: string } }).params?.rule ?? issue.code;
      issues.push({ field: `projects.${i}`, rule, message: issue.message });
    }
  });
  if (issues.length) throw new ValidationError(issues);
  return [...new Set(projects)].sort();
}

export function validateKeyInput(name: string, scope: string): { name: string; scope: Scope } {
  const issues = [];
  if (!KEY_NAME_PATTERN.test(name)) {
    issues.push({
      field: 'name',
      rule: 'format',
      message: 'must be 1–100 letters, digits, spaces or . _ : @ / -, starting with a letter or digit',
    });
  }
  if (!isScope(scope)) issues.push({ field: 'scope', rule: 'enum', message: 'must be read, write or admin' });
  if (issues.length) throw new ValidationError(issues);
  return { name, scope: scope as Scope };
}

export class ApiKeysService {
  private readonly repo: ApiKeysRepo;
  private readonly lastWritten = new Map<string, number>();
  private readonly revokeListeners = new Set<(keyId: string) => void>();
  /** Once true it stays true: keys are never deleted. */
  private everMade = false;
  private everMadeCheckedAt = 0;

  constructor(
    private readonly db: Database,
    private readonly options: { lastUsedWriteIntervalMs: number; logger?: Logger },
  ) {
    this.repo = new ApiKeysRepo(db.reader);
  }

  /**
   * Makes a key. The returned token is the only time the secret exists outside the client. Through
   * the API (`keepAdmin`), a key that would leave no active admin key is refused: the first key made
   * there turns keys on, and a read or write key alone would lock everyone out of key management.
   * (`npm run keys` opens the database itself and can always make another.)
   */
  async create(
    input: { name: string; scope: string; projects?: readonly string[] | null },
    options: { keepAdmin?: boolean; creator?: ProjectScope } = {},
  ): Promise<{ key: ApiKey; token: string }> {
    const { name, scope } = validateKeyInput(input.name, input.scope);
    const projects = validateKeyProjects(input.projects);
    assertCreatorMayGrant(options.creator ?? ProjectScope.ALL, projects);
    const material = generateKey();
    const taken = () =>
      new ConflictError(`an active key named "${name}" already exists; revoke it first or choose another name`);
    const row = await this.db.writes
      .run(async (tx) => {
        await lockKeyManagement(tx.em, this.db.kind);
        const keys = tx.em.getRepository(ApiKeyEntity);
        // While no admin key is active, only an admin key for every project: one scoped to projects could not manage the others.
        if (
          options.keepAdmin &&
          !(scope === 'admin' && projects === null) &&
          !(await keys.existsBy({ scope: 'admin', revokedAt: IsNull() }))
        ) {
          throw ValidationError.of(
            'scope',
            'first_key_admin',
            'the first key must be an admin key (for every project): once a key exists keys are required, and with no admin key nobody could make or revoke keys through the API (or make this key with `npm run keys`)',
          );
        }
        if (await keys.findOneBy({ name, revokedAt: IsNull() })) throw taken();
        return keys.save(
          keys.create({
            keyId: material.keyId,
            name,
            scope,
            secretHash: hashSecret(material.secret),
            createdAt: new Date().toISOString(),
            lastUsedAt: null,
            revokedAt: null,
            projects: projects === null ? null : JSON.stringify(projects),
          }),
        );
      })
      .catch((err) => {
        // The unique index is the last word (a writer that does not take the lock, e.g. an older version).
        throw isActiveNameConflict(err) ? taken() : err;
      });
    this.everMade = true;
    return { key: apiKeyFromRow(row), token: material.token };
  }

  /** Revokes by key id, by name (the active key of that name), or by the whole key. Idempotent. Through the API (`keepAdmin`), never the last active admin key. */
  async revoke(idNameOrKey: string, options: { keepAdmin?: boolean; revoker?: ProjectScope } = {}): Promise<ApiKey> {
    const keyId = parseKey(idNameOrKey)?.keyId ?? (/^[0-9a-f]{16}$/.test(idNameOrKey) ? idNameOrKey : null);
    const row = await this.db.writes.run(async (tx) => {
      await lockKeyManagement(tx.em, this.db.kind);
      const keys = tx.em.getRepository(ApiKeyEntity);
      const found = keyId
        ? await keys.findOneBy({ keyId })
        : await keys.findOne({ where: { name: idNameOrKey, revokedAt: IsNull() }, order: { id: 'DESC' } });
      // A key an admin scoped to projects could not have made is, to it, a key that does not exist.
      if (!found || !managedBy(found, options.revoker)) throw new NotFoundError('ApiKey', idNameOrKey.slice(0, 100));
      if (found.revokedAt) return found;
      if (
        options.keepAdmin &&
        found.scope === 'admin' &&
        found.projects === null &&
        (await keys.countBy({ scope: 'admin', revokedAt: IsNull(), projects: IsNull() })) === 1
      ) {
        throw new ConflictError(
          `"${found.name}" is the last active admin key: make another admin key first, or revoke it with \`npm run keys -- revoke\``,
        );
      }
      found.revokedAt = new Date().toISOString();
      await keys.update({ id: found.id }, { revokedAt: found.revokedAt });
      return found;
    });
    for (const listener of this.revokeListeners) listener(row.keyId);
    return apiKeyFromRow(row);
  }

  /** Called with the key id whenever this process revokes a key. */
  onRevoke(listener: (keyId: string) => void): () => void {
    this.revokeListeners.add(listener);
    return () => this.revokeListeners.delete(listener);
  }

  /** Every key, or, for an admin scoped to projects, the keys it could have made. */
  async list(viewer?: ProjectScope): Promise<ApiKey[]> {
    return (await this.repo.list()).filter((row) => managedBy(row, viewer)).map(apiKeyFromRow);
  }

  /** Checks a presented key. Never says which part was wrong beyond "unknown" vs "revoked". */
  async verify(token: string): Promise<Verification> {
    const parts = parseKey(token);
    if (!parts) return { ok: false, problem: 'the API key is malformed (expected atl_<id>_<secret>)' };
    const row = await this.repo.findByKeyId(parts.keyId);
    if (!row || !secretMatches(parts.secret, row.secretHash)) return { ok: false, problem: 'the API key is not valid' };
    if (row.revokedAt) return { ok: false, problem: 'the API key was revoked' };
    return { ok: true, key: apiKeyFromRow(row) };
  }

  /** Keys that are not revoked. */
  countActive(): Promise<number> {
    return this.repo.countActive();
  }

  /** Which of these key ids are revoked or gone (live sessions are closed for them). */
  invalidAmong(keyIds: string[]): Promise<string[]> {
    return this.repo.invalidAmong(keyIds);
  }

  /** Whether any key was ever made, read from the database now (start-up decides on it). */
  async anyEverMadeNow(): Promise<boolean> {
    this.everMade ||= await this.repo.anyEverMade();
    return this.everMade;
  }

  /** Whether any key was ever made; checked against the database at most once a second until it is true. */
  async anyEverMade(): Promise<boolean> {
    if (this.everMade) return true;
    const now = Date.now();
    if (now - this.everMadeCheckedAt < 1000) return false;
    this.everMadeCheckedAt = now;
    this.everMade = await this.repo.anyEverMade();
    return this.everMade;
  }

  /** Records that the key was used for something it may do (a refused request changes nothing, not even this). */
  recordUse(key: ApiKey): void {
    const now = Date.now();
    const last = this.lastWritten.get(key.keyId) ?? (key.lastUsedAt ? Date.parse(key.lastUsedAt) : 0);
    if (now - last < this.options.lastUsedWriteIntervalMs) return;
    this.lastWritten.set(key.keyId, now);
    const at = new Date(now).toISOString();
    this.db.writes
      .run((tx) => tx.em.getRepository(ApiKeyEntity).update({ keyId: key.keyId }, { lastUsedAt: at }))
      .catch((err) =>
        this.options.logger?.warn(
          `could not record the last use of key ${key.keyId}: ${err instanceof Error ? err.message : err}`,
        ),
      );
  }
}

/**
 * An admin key scoped to projects makes keys only within its projects: never one for every project
 * (that would hand out more than it holds), never one naming a project outside its own.
 */
function assertCreatorMayGrant(creator: ProjectScope, projects: string[] | null): void {
  if (creator.unrestricted) return;
  if (projects === null || !ProjectScope.of(projects).within(creator))
    throw ValidationError.of(
      'projects',
      'project_scope',
      `an admin key scoped to projects makes keys only within them: give projects among ${creator.describe()}`,
    );
}

/** Whether an admin of this scope manages the key: every key for an unscoped admin, else the keys within its projects. */
function managedBy(row: ApiKeyRow, admin: ProjectScope | undefined): boolean {
  return !admin || ProjectScope.of(projectsFromColumn(row.projects)).within(admin);
}
