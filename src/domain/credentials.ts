// What a credential looks like, by name and by value: Atelier's own keys, provider keys
// (OpenAI-style sk-…, Hugging Face hf_…, GitHub gh*_…, AWS AKIA…), bearer tokens and passwords in
// URLs. Used to keep them out of logs and errors (redact.ts) and out of stored run config.

/** Values that are credentials whatever field they sit in. */
export const CREDENTIAL_VALUE_PATTERNS: RegExp[] = [
  /atl_[0-9a-f]{8,32}_[A-Za-z0-9_-]{16,}/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bhf_[A-Za-z0-9]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
];

/** user:password@ in a URL (database and Redis URLs). Every repetition is bounded, so the scan stays linear. */
export const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]{0,31}:\/\/[^/\s:@]{0,256}:)[^@\s/]{1,256}@/gi;

const CREDENTIAL_NAME =
  /^(?:.*_)?(?:api_?key|secret|secret_key|client_secret|password|passwd|access_token|auth_token|bearer_token|refresh_token|id_token|authorization|private_key|access_key|secret_access_key|hf_token|credentials?)$/;

/** Whether a field name says it holds a credential: apiKey, OPENAI_API_KEY, client_secret, password… (not max_tokens). */
export function isCredentialName(name: string): boolean {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s.]+/g, '_')
    .toLowerCase();
  return CREDENTIAL_NAME.test(snake);
}

/** Whether a string contains something shaped like a credential. */
export function looksLikeCredential(value: string): boolean {
  if (URL_CREDENTIALS.test(value)) {
    URL_CREDENTIALS.lastIndex = 0;
    return true;
  }
  return CREDENTIAL_VALUE_PATTERNS.some((p) => {
    p.lastIndex = 0;
    const hit = p.test(value);
    p.lastIndex = 0;
    return hit;
  });
}

/** Paths (a.b.0.c) inside a JSON value where a credential sits, by name or by value. Iterative, and
 * bounded in nodes and depth, so hostile input (JSON nested 100,000 deep) costs linear time. */
export function credentialPaths(value: unknown, maxNodes = 100_000, maxDepth = 64): string[] {
  interface Node {
    v: unknown;
    key: string | null;
    parent: Node | null;
    depth: number;
  }
  const pathOf = (node: Node, last?: string): string => {
    const parts: string[] = last === undefined ? [] : [last];
    for (let n: Node | null = node; n && n.key !== null; n = n.parent) parts.push(n.key);
    return parts.reverse().join('.');
  };
  const found: string[] = [];
  const stack: Node[] = [{ v: value, key: null, parent: null, depth: 0 }];
  let nodes = 0;
  while (stack.length && nodes++ < maxNodes && found.length < 20) {
    const node = stack.pop()!;
    const { v } = node;
    if (typeof v === 'string') {
      if (looksLikeCredential(v)) found.push(pathOf(node));
    } else if (v && typeof v === 'object' && node.depth < maxDepth) {
      const entries: Array<[string, unknown]> = Array.isArray(v)
        ? v.map((item, i) => [String(i), item])
        : Object.entries(v);
      for (const [k, item] of entries) {
        if (!Array.isArray(v) && isCredentialName(k) && item !== null && item !== '' && typeof item !== 'boolean')
          found.push(pathOf(node, k));
        else stack.push({ v: item, key: k, parent: node, depth: node.depth + 1 });
      }
    }
  }
  return found;
}
