// GraphQL types and fields for API keys: who am I (viewer), and, for admin keys, listing, making
// and revoking keys. The admin scope is asked for with the field extension; use-scopes.ts enforces it.
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { builder } from '../graphql/builder';
import { MAX_KEY_PROJECTS, type ApiKey } from './api-keys.service';
import { scopeExtension, SCOPES, type Scope } from './scopes';
import type { Viewer } from './viewer';

export const ApiKeyScopeEnum = builder.enumType('ApiKeyScope', {
  description:
    'READ: queries and subscriptions. WRITE: also the run and ingestion mutations. ADMIN: also key management.',
  values: Object.fromEntries(SCOPES.map((s) => [s.toUpperCase(), { value: s }])) as Record<
    Uppercase<Scope>,
    { value: Scope }
  >,
});

export const ApiKeyRef = builder.objectRef<ApiKey>('ApiKey').implement({
  description: 'An API key, without its secret (Atelier keeps only a hash of it).',
  fields: (t) => ({
    id: t.id({ description: 'The public part of the key: atl_<id>_<secret>.', resolve: (k) => k.keyId }),
    name: t.exposeString('name'),
    scope: t.field({ type: ApiKeyScopeEnum, resolve: (k) => k.scope }),
    createdAt: t.field({ type: 'DateTime', resolve: (k) => k.createdAt }),
    lastUsedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Updated at most once a minute.',
      resolve: (k) => k.lastUsedAt,
    }),
    revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: (k) => k.revokedAt }),
    projects: t.stringList({
      nullable: true,
      description: 'The projects the key reaches (runs of other projects do not exist for it); null: every project.',
      resolve: (k) => k.projects,
    }),
  }),
});

const ViewerRef = builder.objectRef<Viewer>('Viewer').implement({
  description: 'Who the server takes the caller to be.',
  fields: (t) => ({
    authenticated: t.boolean({
      description: 'Whether a valid API key was presented.',
      resolve: (v) => v.kind === 'key',
    }),
    scope: t.field({
      type: ApiKeyScopeEnum,
      description: "What the caller may do: the key's scope, or ADMIN when Atelier runs open.",
      resolve: (v) => (v.kind === 'key' ? v.key.scope : 'admin'),
    }),
    keyName: t.string({ nullable: true, resolve: (v) => (v.kind === 'key' ? v.key.name : null) }),
    projects: t.stringList({
      nullable: true,
      description: 'The projects the caller reaches; null: every project.',
      resolve: (v) => v.projects.projectNames,
    }),
    openAccess: t.boolean({
      description: 'True when Atelier runs without requiring keys.',
      resolve: (v) => v.kind === 'open',
    }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerRef,
    description: 'Who you are to Atelier and what you may do.',
    resolve: (_r, _a, ctx) => ctx.viewer,
  }),
  apiKeys: t.field({
    type: [ApiKeyRef],
    description:
      'Every API key, newest first, revoked ones included. Needs an admin key; one scoped to projects sees the keys within its projects.',
    extensions: scopeExtension('admin'),
    resolve: (_r, _a, ctx) => ctx.services.apiKeys.list(ctx.viewer.projects),
  }),
}));

const CreateApiKeyPayload = builder.objectRef<{ key: ApiKey; token: string }>('CreateApiKeyPayload').implement({
  fields: (t) => ({
    apiKey: t.field({ type: ApiKeyRef, resolve: (p) => p.key }),
    secret: t.string({
      description: 'The whole key, to send as "Authorization: Bearer <secret>". Shown this once only.',
      resolve: (p) => p.token,
    }),
  }),
});

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreateApiKeyPayload,
    description:
      'Makes an API key, for every project or (with projects) for those only. Needs an admin key; one scoped to projects makes keys within its projects only. The secret is in this answer only.',
    extensions: scopeExtension('admin'),
    errors: { types: [ValidationError, ConflictError], directResult: true },
    args: {
      name: t.arg.string({ required: true, validate: { maxLength: 100 } }),
      scope: t.arg({ type: ApiKeyScopeEnum, required: true }),
      projects: t.arg.stringList({
        description: `The projects the key reaches (1 to ${MAX_KEY_PROJECTS}); leave out for every project.`,
        validate: { maxLength: MAX_KEY_PROJECTS },
      }),
    },
    resolve: (_r, args, ctx) =>
      ctx.services.apiKeys.create(
        { name: args.name, scope: args.scope, projects: args.projects },
        { keepAdmin: true, creator: ctx.viewer.projects },
      ),
  }),
  revokeApiKey: t.field({
    type: builder.objectRef<{ key: ApiKey }>('RevokeApiKeyPayload').implement({
      fields: (f) => ({ apiKey: f.field({ type: ApiKeyRef, resolve: (p) => p.key }) }),
    }),
    description:
      'Revokes a key by id (or by name): requests with it are refused from now on and the subscriptions it opened are closed. Needs an admin key.',
    extensions: scopeExtension('admin'),
    errors: { types: [ValidationError, NotFoundError, ConflictError], directResult: true },
    args: { id: t.arg.id({ required: true, validate: { maxLength: 200 } }) },
    resolve: async (_r, args, ctx) => ({
      key: await ctx.services.apiKeys.revoke(String(args.id), { keepAdmin: true, revoker: ctx.viewer.projects }),
    }),
  }),
}));
