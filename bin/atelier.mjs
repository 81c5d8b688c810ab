#!/usr/bin/env node
// The `atelier` command: runs the TypeScript CLI (src/cli/) through tsx, from a checkout or an install.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/run.ts');
