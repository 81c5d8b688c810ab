// zod rules for JSON the API stores (run config, trajectory metadata, task context): an object,
// bounded in size and depth, and made only of finite numbers, strings, booleans, null, lists and objects.
import { z } from 'zod';

function depthOf(value: unknown, depth = 0): number {
  if (depth > 64) return depth;
  if (Array.isArray(value)) return Math.max(depth + 1, ...value.map((v) => depthOf(v, depth + 1)));
  if (value && typeof value === 'object') return Math.max(depth + 1, ...Object.values(value).map((v) => depthOf(v, depth + 1)));
  return depth;
}

function finiteEverywhere(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(finiteEverywhere);
  if (value && typeof value === 'object') return Object.values(value).every(finiteEverywhere);
  return true;
}

export function jsonObject(maxBytes: number, maxDepth = 16) {
  return z
    .unknown()
    .refine((v) => v !== null && typeof v === 'object' && !Array.isArray(v), { message: 'must be a JSON object', params: { rule: 'object' } })
    .refine((v) => depthOf(v) <= maxDepth, { message: `must be nested at most ${maxDepth} levels deep`, params: { rule: 'max_depth' } })
    .refine((v) => finiteEverywhere(v), { message: 'numbers must be finite', params: { rule: 'finite' } })
    .refine((v) => Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8') <= maxBytes, {
      message: `must be at most ${maxBytes} bytes as JSON`,
      params: { rule: 'max_bytes' },
    });
}

/** A non-blank string of bounded length, without control characters other than tab and newlines. */
export function text(max: number) {
  return z
    .string()
    .max(max, { message: `must be at most ${max} characters` })
    .refine((s) => s.trim().length > 0, { message: 'must not be blank', params: { rule: 'not_blank' } })
    .refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(s), { message: 'must not contain control characters', params: { rule: 'no_control_chars' } });
}
