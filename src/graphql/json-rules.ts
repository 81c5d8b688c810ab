// zod rules for JSON the API stores (run config, trajectory metadata, task context): an object,
// bounded in size and depth, and made only of finite numbers, strings, booleans, null, lists and objects.
// The checks walk the value iteratively and stop at the first broken rule, so hostile input (a
// million-element list, JSON nested thousands deep) costs bounded time and never overflows the stack.
import { z } from 'zod';

type Shape = { ok: true } | { ok: false; rule: 'object' | 'max_depth' | 'finite'; message: string };

function inspect(value: unknown, maxDepth: number): Shape {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, rule: 'object', message: 'must be a JSON object' };
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 1 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'number' && !Number.isFinite(v))
      return { ok: false, rule: 'finite', message: 'numbers must be finite' };
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxDepth)
      return { ok: false, rule: 'max_depth', message: `must be nested at most ${maxDepth} levels deep` };
    const children = Array.isArray(v) ? v : Object.values(v);
    for (let i = 0; i < children.length; i++) stack.push({ v: children[i], depth: depth + 1 });
  }
  return { ok: true };
}

export function jsonObject(maxBytes: number, maxDepth = 16) {
  return z.unknown().superRefine((v, ctx) => {
    const shape = inspect(v, maxDepth);
    if (!shape.ok) {
      ctx.addIssue({ code: 'custom', message: shape.message, params: { rule: shape.rule } });
      return;
    }
    if (Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8') > maxBytes) {
      ctx.addIssue({
        code: 'custom',
        message: `must be at most ${maxBytes} bytes as JSON`,
        params: { rule: 'max_bytes' },
      });
    }
  });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A non-blank string of bounded length, without control characters other than tab and newlines. */
export function text(max: number) {
  return z
    .string()
    .max(max, { message: `must be at most ${max} characters` })
    .refine((s) => s.trim().length > 0, { message: 'must not be blank', params: { rule: 'not_blank' } })
    .refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(s), {
      message: 'must not contain control characters',
      params: { rule: 'no_control_chars' },
    })
    .refine((s) => !LONE_SURROGATE.test(s), {
      message: 'must be well-formed Unicode',
      params: { rule: 'well_formed' },
    });
}
