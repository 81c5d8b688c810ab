// Relay global ids: base64url of "Type:databaseId". A malformed id is a validation error, not a crash.
import { ValidationError } from '../errors';

export function encodeGlobalId(typename: string, id: string | number | bigint): string {
  return Buffer.from(`${typename}:${id}`, 'utf8').toString('base64url');
}

export function decodeGlobalId(globalId: string): { typename: string; id: string } {
  const text = Buffer.from(globalId, 'base64url').toString('utf8');
  const match = /^([A-Za-z][A-Za-z0-9]*):([1-9][0-9]{0,15})$/.exec(text);
  if (!match || encodeGlobalId(match[1], match[2]) !== globalId) {
    throw ValidationError.of('id', 'global_id', `"${globalId.slice(0, 64)}" is not a valid global id`);
  }
  return { typename: match[1], id: match[2] };
}

/** Decodes a global id that must name the given type, returning its database id. */
export function parseGlobalIdOf(typename: string, globalId: string, field = 'id'): number {
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalId(globalId);
  } catch {
    throw ValidationError.of(field, 'global_id', `"${globalId.slice(0, 64)}" is not a valid ${typename} id`);
  }
  if (decoded.typename !== typename)
    throw ValidationError.of(field, 'global_id', `expected a ${typename} id, got a ${decoded.typename} id`);
  return Number(decoded.id);
}
