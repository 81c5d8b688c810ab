// How deeply brackets nest in the query text, counted before parsing. graphql-js parses values
// recursively, so a literal such as `{a: {a: … 2000 levels … 1}}` (8 KB, inside the token limit)
// overflows the stack inside the parser; a linear scan outside strings and comments refuses it first.
import type { Plugin } from 'graphql-yoga';

import { limitError } from './limit-error';

/** The deepest nesting of `{`, `[` and `(` outside strings, block strings and comments; stops counting past `stopAt`. */
export function nestingDepth(text: string, stopAt = Infinity): number {
  let depth = 0;
  let deepest = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x23 /* # */) {
      while (i < n && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22 /* " */) {
      if (text.startsWith('""', i + 1)) {
        // Block string: ends at the next """ not escaped as \""".
        i += 3;
        while (i < n && !(text.startsWith('"""', i) && text.charCodeAt(i - 1) !== 0x5c)) i++;
        i += 2;
      } else {
        i++;
        while (i < n && text.charCodeAt(i) !== 0x22 && text.charCodeAt(i) !== 0x0a)
          i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      }
    } else if (c === 0x7b || c === 0x5b || c === 0x28) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stopAt) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      if (depth > 0) depth--;
    }
  }
  return deepest;
}

/** Refuses, before parsing, a document whose brackets nest deeper than maxNesting. */
export function useNestingLimit(maxNesting: number): Plugin {
  return {
    onParse({ params }) {
      const text = typeof params.source === 'string' ? params.source : params.source.body;
      const depth = nestingDepth(text, maxNesting);
      if (depth > maxNesting) {
        // The scan stops at the first level over the limit: `found` says "at least".
        throw limitError('maxNesting', `brackets nested ${depth} deep (or more) exceed the limit of ${maxNesting}`, {
          max: maxNesting,
          found: depth,
        });
      }
    },
  };
}
