// What an operation asks of a list's items: the field names selected under a path of the current
// field (say edges.node of a connection), through fragments and inline fragments. A list whose
// items need a few columns can then read those alone.
import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * The names (not aliases) of the fields selected at `path` below the field being resolved, in every
 * place the operation asks for it. Directives (@include/@skip) are ignored: a field that might be
 * asked for counts as asked for, so the answer is never less than what execution needs.
 */
export function selectedFieldsAt(info: GraphQLResolveInfo, path: readonly string[]): Set<string> {
  const names = new Set<string>();
  const visit = (set: SelectionSetNode | undefined, depth: number, seen: Set<string>) => {
    if (!set) return;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (depth === path.length) names.add(s.name.value);
        else if (s.name.value === path[depth]) visit(s.selectionSet, depth + 1, seen);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        visit(s.selectionSet, depth, seen);
      } else if (!seen.has(s.name.value)) {
        // A fragment spread; a fragment is expanded once per path (validation already refused cycles).
        visit(info.fragments[s.name.value]?.selectionSet, depth, new Set(seen).add(s.name.value));
      }
    }
  };
  for (const node of info.fieldNodes as readonly FieldNode[]) visit(node.selectionSet, 0, new Set());
  return names;
}
