// Limits on the shape of an operation, checked before it runs: tokens (while parsing, so a huge
// document is never built), depth, aliases and directives (graphql-armor's validation rules).
// Each refusal names its limit.
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';

import type { LimitsConfig } from '../config';
import { limitError, type LimitName } from './limit-error';

const found = (message: string) => {
  const m = /found (\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
};

/** Reports armor's refusal as Atelier's named limit error instead of armor's generic one. */
function reporter(limit: LimitName, max: number, what: string) {
  return (context: ValidationContext | null, err: Error) => {
    const n = found(err.message);
    const error = limitError(limit, `${what} ${n ?? 'over the limit'} exceeds the limit of ${max}`, { max, found: n });
    if (context) context.reportError(error);
    else throw error;
  };
}

export function useDocumentLimits(limits: LimitsConfig): Plugin[] {
  const common = { exposeLimits: true, propagateOnRejection: false } as const;
  const tokens = maxTokensPlugin({
    n: limits.maxTokens,
    ...common,
    onReject: [
      () => {
        throw limitError('maxTokens', `the operation has more than ${limits.maxTokens} tokens`, {
          max: limits.maxTokens,
        });
      },
    ],
  });
  const rules = [
    maxDepthRule({
      n: limits.maxDepth,
      ...common,
      ignoreIntrospection: true,
      onReject: [reporter('maxDepth', limits.maxDepth, 'query depth')],
    }),
    maxAliasesRule({
      n: limits.maxAliases,
      ...common,
      onReject: [reporter('maxAliases', limits.maxAliases, 'aliases')],
    }),
    maxDirectivesRule({
      n: limits.maxDirectives,
      ...common,
      onReject: [reporter('maxDirectives', limits.maxDirectives, 'directives')],
    }),
  ];
  return [
    tokens as Plugin,
    {
      onValidate({ addValidationRule }) {
        for (const rule of rules) addValidationRule(rule);
      },
    },
  ];
}
