// Rewrites the README's Clients code blocks from the files they show (test/clients/*.ts, codegen.ts
// and the `#region readme:` parts of test/clients.test.ts), so that formatting or editing an example
// keeps the README in step. `npm run format` runs it; test/clients.test.ts fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

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

function source(name: string): string | undefined {
  const [file, region] = name.split('#');
  if (region) return regions().get(region);
  return file === 'codegen.ts' || file.startsWith('test/clients/') ? read(file) : undefined;
}

const readme = read('README.md');
const updated = readme.replace(/^```ts\n\/\/ ((?:test\/|codegen\.ts)\S*)\n([\s\S]*?)^```$/gm, (block, name: string) => {
  const code = source(name);
  return code === undefined ? block : `\`\`\`ts\n// ${name}\n${code}\`\`\``;
});
if (updated !== readme) writeFileSync(join(ROOT, 'README.md'), updated);
console.log(
  updated === readme
    ? 'README Clients blocks already match their files'
    : 'README Clients blocks rewritten from their files',
);
