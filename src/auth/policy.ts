// When Atelier requires keys, and whether it may start at all. Pure rules, tested on their own.
//   AUTH=auto (default): open while it listens only on loopback and no key was ever made; keys
//     required otherwise. On any other address with no active key it refuses to start.
//   AUTH=required: keys always; refuses to start while no key is active.
//   AUTH=open: never requires keys (a presented key is still checked); loud on a non-loopback address.
import { isIP } from 'node:net';

import type { AuthMode } from '../config';

export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\./.test(h) || /^0{0,4}(:0{0,4}){6}:0{0,3}1$/.test(h);
  return false;
}

/** Whether a request without a key is refused. */
export function keysRequired(mode: AuthMode, loopback: boolean, anyKeyEverMade: boolean): boolean {
  if (mode === 'open') return false;
  if (mode === 'required') return true;
  return !loopback || anyKeyEverMade;
}

export interface StartupFacts {
  mode: AuthMode;
  host: string;
  port: number;
  activeKeys: number;
  anyKeyEverMade: boolean;
}

export interface StartupDecision {
  start: boolean;
  level: 'info' | 'warn' | 'error';
  message: string;
}

const MAKE_KEY = 'npm run keys -- create --name admin --scope admin';

export function decideStartup(f: StartupFacts): StartupDecision {
  const loopback = isLoopbackHost(f.host);
  const where = `${f.host}:${f.port}`;
  if (f.mode === 'open') {
    return loopback
      ? {
          start: true,
          level: 'warn',
          message: `AUTH=open: running without API keys on ${where}; anyone on this machine may read, write and manage keys.`,
        }
      : {
          start: true,
          level: 'warn',
          message:
            `!!! AUTH=open on ${where}, which is not a loopback address: ANYONE WHO CAN REACH THIS PORT MAY CANCEL, DELETE AND FLOOD RUNS ` +
            `AND MAKE API KEYS. Unset AUTH (or set AUTH=required) and make a key with \`${MAKE_KEY}\` to require keys. !!!`,
        };
  }
  if (f.activeKeys === 0 && (f.mode === 'required' || !loopback)) {
    const why =
      f.mode === 'required'
        ? 'AUTH=required but no API key is active'
        : `HOST=${f.host} is not a loopback address and no API key is active`;
    return {
      start: false,
      level: 'error',
      message:
        `Refusing to start: ${why}, so ${f.mode === 'required' ? 'nobody could use Atelier' : `anyone who can reach port ${f.port} could cancel, delete or flood runs`}. ` +
        `Make a key first with \`${MAKE_KEY}\` (it opens the same DATABASE_URL), or, to run without keys anyway, set AUTH=open.`,
    };
  }
  if (!keysRequired(f.mode, loopback, f.anyKeyEverMade)) {
    return {
      start: true,
      level: 'warn',
      message: `Running OPEN (no API keys): no key exists and Atelier listens only on loopback (${where}), so anyone on this machine may read, write and manage keys. Make a key to require keys from then on: \`${MAKE_KEY}\`.`,
    };
  }
  if (f.activeKeys === 0) {
    return {
      start: true,
      level: 'warn',
      message: `API keys are required on ${where} and none is active: every request will be refused until one is made with \`${MAKE_KEY}\`.`,
    };
  }
  return { start: true, level: 'info', message: `API keys required (${f.activeKeys} active).` };
}
