// The README's Clients code blocks and the files they show (test/clients/*.ts, codegen.ts and the
// `#region readme:` parts of test/clients.test.ts). Run as a script (`npm run format` does), it
// rewrites the blocks from the files; test/clients.test.ts uses the same functions to fail when
// they differ.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
/** A README block that names its source on its first line: `// test/clients/x.ts`, `// codegen.ts`, `// test/clients.test.ts#name`. */
const BLOCK = /^```ts\n\/\/ ((?:test\/|codegen\.ts)\S*)\n([\s\S]*?)^```$/gm;

/** The `// #region readme:<name>` … `// #endregion` parts of test/clients.test.ts, dedented. */
function regions(): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of read('test/clients.test.ts').matchAll(
    /^( *)\/\/ #region readme:(\S+)\n([\s\S]*?)^ *\/\/ #endregion$/gm,
  )) {
    out.set(
      m[2],
      m[3]
        .split('\n')
        .map((line) => line.slice(m[1].length))
        .join('\n'),
    );
  }
  return out;
}

/** The README's blocks, by the source they name. */
export function readmeBlocks(): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const m of read('README.md').matchAll(BLOCK)) blocks.set(m[1], m[2]);
  return blocks;
}

/** What each block must show: every file in test/clients/, codegen.ts and every readme region. */
export function expectedBlocks(): Map<string, string> {
  const expected = new Map<string, string>();
  for (const f of readdirSync(join(ROOT, 'test/clients')).filter((f) => f.endsWith('.ts'))) {
    expected.set(`test/clients/${f}`, read(`test/clients/${f}`));
  }
  expected.set('codegen.ts', read('codegen.ts'));
  for (const [name, code] of regions()) expected.set(`test/clients.test.ts#${name}`, code);
  return expected;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const expected = expectedBlocks();
  const readme = read('README.md');
  const updated = readme.replace(BLOCK, (block, name: string) => {
    const code = expected.get(name);
    return code === undefined ? block : `\`\`\`ts\n// ${name}\n${code}\`\`\``;
  });
  if (updated !== readme) writeFileSync(join(ROOT, 'README.md'), updated);
  console.log(
    updated === readme
      ? 'README Clients blocks already match their files'
      : 'README Clients blocks rewritten from their files',
  );
}
