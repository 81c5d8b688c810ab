// What each scope allows, and which scope an operation needs. The rule lives here and is enforced
// in one place (use-scopes.ts): queries and subscriptions need `read`, mutations need `write`, and
// a root field may ask for more with the Pothos field extension `{ scope: 'admin' }`.
import {
  getNamedType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

const RANK: Record<Scope, number> = { read: 1, write: 2, admin: 3 };

/** Whether a key with `held` may do what needs `needed` (each scope includes the ones below it). */
export function allows(held: Scope, needed: Scope): boolean {
  return RANK[held] >= RANK[needed];
}

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** The field extension that raises a root field's scope, e.g. `extensions: scopeExtension('admin')`. */
export function scopeExtension(scope: Scope): { scope: Scope } {
  return { scope };
}

/** The root fields an operation selects, through fragments and inline fragments. */
export function rootFields(operation: OperationDefinitionNode, document: DocumentNode): string[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const names = new Set<string>();
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) names.add(sel.name.value);
      else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const fragment = fragments.get(sel.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return [...names];
}

/** The scope an operation needs: the highest its root fields ask for. */
export function requiredScope(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  document: DocumentNode,
): Scope {
  const base: Scope = operation.operation === 'mutation' ? 'write' : 'read';
  const root = schema.getRootType(operation.operation);
  if (!root || !isObjectType(getNamedType(root))) return base;
  const fields = root.getFields();
  let needed: Scope = base;
  for (const name of rootFields(operation, document)) {
    const raised = fields[name]?.extensions?.scope;
    if (isScope(raised) && RANK[raised] > RANK[needed]) needed = raised;
  }
  return needed;
}
