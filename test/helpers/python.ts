// The Python the Python-side tests run: ATELIER_TEST_PYTHON, else the repo's own environment built by
// scripts/python-env.sh (`npm test` builds it first; CI too), with the real openai, pydantic, httpx,
// pytest, pyarrow, fastapi, mcp and polars. Tests that need a module it lacks skip and say which.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const REPO_VENV_PYTHON = join(import.meta.dirname, '..', '..', '.venv', 'bin', 'python');

/** Candidate interpreters, most specific first. */
function candidates(): string[] {
  const list = [process.env.ATELIER_TEST_PYTHON?.trim()];
  if (existsSync(REPO_VENV_PYTHON)) list.push(REPO_VENV_PYTHON);
  list.push('python3');
  return list.filter((p): p is string => !!p);
}

/** The first candidate that imports every module, or null. */
export function pythonWith(...modules: string[]): string | null {
  const probe = modules.length ? `import ${modules.join(', ')}` : 'import sys';
  for (const py of candidates()) {
    try {
      execFileSync(py, ['-c', `import sys; assert sys.version_info >= (3, 10); ${probe}`], { stdio: 'ignore' });
      return py;
    } catch {
      /* try the next */
    }
  }
  return null;
}

/** Why a test needing these modules skipped, for its title. */
export function pythonSkipReason(...modules: string[]): string {
  return `skipped: no Python 3.10+ with ${modules.join(', ')} — run \`bash scripts/python-env.sh\` or set ATELIER_TEST_PYTHON`;
}
