// What an operation selects below the field being resolved, through fragments, inline fragments and
// aliases (names, not aliases, count), for resolvers that can read less, or refuse sooner, when they
// know what the answer will hold. One walker, two questions:
// - selectsPath: is a path selected? A lower bound: selections under @include/@skip count as not selected.
// - selectedFieldsAt: which fields are selected at a path? An upper bound: a field that might be asked
//   for (under @include/@skip) counts as asked for, so a read is never less than execution needs.
import {
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';

type Fragments = Record<string, FragmentDefinitionNode>;

/** The fields of a selection set, fragments expanded (each once: validation refused cycles). */
function fieldsOf(
  set: SelectionSetNode | undefined,
  fragments: Fragments,
  withDirectives: boolean,
  out: FieldNode[] = [],
  seen = new Set<string>(),
): FieldNode[] {
  for (const sel of set?.selections ?? []) {
    if (!withDirectives && sel.directives?.length) continue;
    if (sel.kind === Kind.FIELD) out.push(sel);
    else if (sel.kind === Kind.INLINE_FRAGMENT) fieldsOf(sel.selectionSet, fragments, withDirectives, out, seen);
    else if (!seen.has(sel.name.value) && fragments[sel.name.value]) {
      seen.add(sel.name.value);
      fieldsOf(fragments[sel.name.value].selectionSet, fragments, withDirectives, out, seen);
    }
  }
  return out;
}

const EMPTY: SelectionSetNode = { kind: Kind.SELECTION_SET, selections: [] };

/** The selection sets of the fields at `path` below these sets (a leaf field's is empty). */
function setsAt(
  sets: SelectionSetNode[],
  path: readonly string[],
  fragments: Fragments,
  withDirectives: boolean,
): SelectionSetNode[] {
  let current = sets;
  for (const name of path)
    current = current.flatMap((set) =>
      fieldsOf(set, fragments, withDirectives)
        .filter((f) => f.name.value === name)
        .map((f) => f.selectionSet ?? EMPTY),
    );
  return current;
}

/** True when the field being resolved selects `path` (e.g. edges → node → messages → content) in some copy of it. */
export function selectsPath(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: string[]): boolean {
  // One copy of the field (the same alias may be written twice and merged) selecting it is enough.
  return info.fieldNodes.some(
    (node) => node.selectionSet && setsAt([node.selectionSet], path, info.fragments, false).length > 0,
  );
}

/**
 * The names (not aliases) of the fields selected at `path` below the field being resolved (say
 * edges.node of a connection), in every place the operation asks for it.
 */
export function selectedFieldsAt(
  info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>,
  path: readonly string[],
): Set<string> {
  const names = new Set<string>();
  const roots = info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  for (const set of setsAt(roots, path, info.fragments, true))
    for (const field of fieldsOf(set, info.fragments, true)) names.add(field.name.value);
  return names;
}
