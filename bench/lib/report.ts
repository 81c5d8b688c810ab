// BENCHMARKS.md: a summary table and one section per scenario. A run rewrites only the sections of
// the scenarios it ran and keeps the others; each section carries its result as a JSON comment, from
// which the summary is rebuilt.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import type { MachineFacts } from './machine';
import { fmt } from './stats';
import type { RatioCheck, Scenario, ScenarioResult } from './types';

export interface SectionData {
  name: string;
  order: number;
  title: string;
  /** pass / miss over all checks; measured (no target); unavailable; error. */
  outcome: 'pass' | 'miss' | 'measured' | 'unavailable' | 'error';
  checks: RatioCheck[];
  headline?: { name: string; value: string };
  date: string;
}

const SECTION = /<!-- scenario:([a-z0-9-]+) -->\n([\s\S]*?)<!-- \/scenario:\1 -->\n?/g;
const DATA = /<!-- result (\{.*\}) -->/;

export function outcomeOf(result: ScenarioResult): SectionData['outcome'] {
  if (result.status === 'unavailable') return 'unavailable';
  if (result.checks.length === 0) return 'measured';
  return result.checks.every((c) => c.pass) ? 'pass' : 'miss';
}

/** A ratio with ×; a check whose target is a plain number (say GB) shows the number alone. */
const ratio = (v: number, target = '×') => (target.includes('×') ? `${fmt(v, 2)}×` : fmt(v, 2));

export function renderSection(
  s: Scenario,
  result: ScenarioResult | { error: string },
  machine: MachineFacts,
  seconds: number,
): string {
  const lines: string[] = [];
  const failed = 'error' in result;
  const data: SectionData = {
    name: s.name,
    order: s.order,
    title: s.title,
    outcome: failed ? 'error' : outcomeOf(result),
    checks: failed ? [] : result.checks,
    ...(!failed && result.headline ? { headline: result.headline } : {}),
    date: machine.date,
  };
  lines.push(`## ${s.title} (\`${s.name}\`)`, '');
  lines.push(`<!-- result ${JSON.stringify(data)} -->`);
  lines.push(`What: ${s.measures}.`, '');
  if (!failed && result.status === 'unavailable') {
    lines.push(`**Not measured** (as of ${machine.date}).`, '');
  } else {
    lines.push(
      `Measured ${machine.date} on ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}; the scenario took ${Math.round(seconds)} s.`,
      '',
    );
  }
  if (failed) {
    lines.push('**The scenario failed:**', '', '```', result.error.trim(), '```', '');
  } else if (result.status === 'measured') {
    lines.push('| figure (median of rounds) | value |', '| --- | --- |');
    for (const f of result.figures) lines.push(`| ${f.label} | ${f.value} |`);
    lines.push('');
    if (result.checks.length) {
      lines.push('| ratio (measured side by side) | value | target | result |', '| --- | --- | --- | --- |');
      for (const c of result.checks)
        lines.push(`| ${c.name} | ${ratio(c.value, c.target)} | ${c.target} | ${c.pass ? 'pass' : '**miss**'} |`);
      lines.push('');
    }
  }
  if (!failed && result.notes.length) {
    for (const n of result.notes) lines.push(`- ${n}`);
    lines.push('');
  }
  lines.push(`Reproduce alone: \`npm run bench -- ${s.name}\``, '');
  return `<!-- scenario:${s.name} -->\n${lines.join('\n')}<!-- /scenario:${s.name} -->\n`;
}

function summary(sections: SectionData[]): string {
  const rows = ['| scenario | ratio | value | target | result | measured |', '| --- | --- | --- | --- | --- | --- |'];
  for (const s of sections) {
    if (s.checks.length === 0 && s.headline && s.outcome === 'measured') {
      rows.push(`| ${s.name} | ${s.headline.name} | ${s.headline.value} | — | measured | ${s.date} |`);
      continue;
    }
    if (s.checks.length === 0) {
      rows.push(`| ${s.name} | — | — | — | ${s.outcome === 'error' ? '**error**' : s.outcome} | ${s.date} |`);
      continue;
    }
    for (const c of s.checks)
      rows.push(
        `| ${s.name} | ${c.name} | ${ratio(c.value, c.target)} | ${c.target} | ${c.pass ? 'pass' : '**miss**'} | ${s.date} |`,
      );
  }
  return rows.join('\n');
}

const HEADER = `# Atelier benchmarks

How fast Atelier is next to the limits of the machine it runs on. Every figure is a median of several
rounds, and every ratio compares two figures measured side by side in the same run (Atelier and its
baseline alternate round by round), because these machines are shared and noisy: an absolute time
alone would say more about the neighbours than about Atelier.

\`npm run bench\` runs every scenario and rewrites this file; \`npm run bench -- <scenario>\` runs one
and rewrites only its section. Each scenario builds its own data in a temporary folder, runs against
real Atelier servers over loopback in processes of their own, and stops by itself. The code is in
\`bench/\`: \`bench/run.ts\` (the runner), \`bench/scenarios/<name>.ts\` (one file per scenario),
\`bench/lib/\` (data building, worker processes, statistics, this report). A full run takes several
minutes on the 2-core machine these figures come from, the longest part building (once) the shared
1,000,000-trajectory database of ~2 KB trajectories (about 2.5 GB). \`BENCH_CPU_PROF=<dir> npm run bench -- <scenario>\`
also writes a V8 CPU profile of every process the scenario starts, for finding out why.

Atelier's servers run as \`npm start\` runs them: bundled by esbuild (the options of \`npm run build:server\`)
and run on plain Node, without tsx; so do the baselines and the load generators. (\`BENCH_CPU_PROF\`
profiles of the bundles name the bundled functions, with line numbers of dist/bench/<worker>.mjs.)
Where a target is missed, the scenario's section says why, from figures measured in the same run; the
scenarios are not relaxed to meet them.
`;

/** Writes the report, replacing the given sections and keeping the others. */
export function writeReport(path: string, replaced: Map<string, string>, order: Map<string, number>): void {
  const sections = new Map<string, string>();
  if (existsSync(path)) for (const m of readFileSync(path, 'utf8').matchAll(SECTION)) sections.set(m[1], m[0]);
  for (const [name, text] of replaced) sections.set(name, text);
  const ordered = [...sections.entries()].sort(
    ([a], [b]) => (order.get(a) ?? 99) - (order.get(b) ?? 99) || a.localeCompare(b),
  );
  const data = ordered
    .map(([, text]) => JSON.parse(DATA.exec(text)?.[1] ?? 'null') as SectionData | null)
    .filter((d): d is SectionData => d !== null);
  const body = [HEADER, '## Summary', '', summary(data), '', ...ordered.map(([, text]) => text)].join('\n');
  writeFileSync(path, body.replace(/\n{3,}/g, '\n\n'));
}
