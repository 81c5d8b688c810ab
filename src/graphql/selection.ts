// Whether an operation selects a path below a field (through fragments, inline fragments and aliases),
// for resolvers that can read less, or refuse sooner, when they know what the answer will hold.
// Selections under @include/@skip count as not selected: callers use this for lower bounds.
import { Kind, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

function fieldsNamed(
  set: SelectionSetNode | undefined,
  name: string,
  fragments: Record<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): SelectionSetNode[] {
  const found: SelectionSetNode[] = [];
  for (const sel of set?.selections ?? []) {
    if (sel.directives?.length) continue;
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value === name) found.push(sel.selectionSet ?? { kind: Kind.SELECTION_SET, selections: [] });
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      found.push(...fieldsNamed(sel.selectionSet, name, fragments, seen));
    } else if (!seen.has(sel.name.value) && fragments[sel.name.value]) {
      seen.add(sel.name.value);
      found.push(...fieldsNamed(fragments[sel.name.value].selectionSet, name, fragments, seen));
    }
  }
  return found;
}

/** True when the field being resolved selects `path` (e.g. edges → node → messages → content) in every copy of it. */
export function selectsPath(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: string[]): boolean {
  const reaches = (sets: SelectionSetNode[], rest: string[]): boolean =>
    rest.length === 0
      ? sets.length > 0
      : reaches(
          sets.flatMap((set) => fieldsNamed(set, rest[0], info.fragments)),
          rest.slice(1),
        );
  // One copy of the field (the same alias may be written twice and merged) selecting it is enough.
  return info.fieldNodes.some((node) => node.selectionSet && reaches([node.selectionSet], path));
}
