// Compiles a parsed run search (domain/run-query.ts) to one parameterized SQL condition on alias `r`
// (training_runs), for SQLite and PostgreSQL. Values are always parameters; only field names the
// parser checked reach the text. Tags and metrics are `r.id IN (…)` over their indexes (run_tags by
// tag, run_summaries by name and last value); config keys read the JSON text (json_extract on
// SQLite, jsonb operators on PostgreSQL), comparing numbers as numbers and text as text. A
// comparison, `!=` included, matches only runs that have the field.
//
// Within an AND, the tag and metric sets are compiled first and as ONE `r.id IN (a INTERSECT b)`:
// the indexes alone then narrow the runs before any training_runs row is read (otherwise SQLite
// drives from one set and reads a row for each of its ids just to test the next set), and the
// row-reading conditions (config JSON, free text) are only evaluated on what is left.
import type { DbKind } from '../db/data-source';
import type { SqlParams } from '../db/rows';
import type { Field, Op, QueryNode, Value } from '../domain/run-query';

/** Run settings that are columns, reachable as config.<key> as W&B users expect (config.learning_rate). */
const CONFIG_COLUMNS: Record<string, { expr: string; numeric: boolean }> = {
  learning_rate: { expr: 'r.learning_rate', numeric: true },
  num_examples: { expr: 'r.num_examples', numeric: true },
  rollouts_per_group: { expr: 'r.rollouts_per_group', numeric: true },
  num_epochs: { expr: 'r.num_epochs', numeric: true },
  max_steps: { expr: 'r.max_steps', numeric: true },
  model_name: { expr: 'r.model_name', numeric: false },
  base_model: { expr: 'r.model_name', numeric: false },
  trained_model_name: { expr: 'r.trained_model_name', numeric: false },
};

const TEXT_COLUMNS = {
  project: 'r.project_name',
  group: 'r.group_name',
  name: 'COALESCE(r.name, r.trained_model_name)',
  model: 'r.model_name',
  status: 'r.status',
  mode: 'r.mode',
} as const;

const SQL_OP: Record<Exclude<Op, 'in' | '~'>, string> = {
  '=': '=',
  '!=': '<>',
  '>': '>',
  '>=': '>=',
  '<': '<',
  '<=': '<=',
};

type CompareNode = Extract<QueryNode, { kind: 'compare' }>;

/** A comparison that is exactly "the run's id is in this set of tag or metric rows" (not `tag !=`). */
function idSetOf(node: QueryNode): CompareNode | null {
  if (node.kind !== 'compare') return null;
  if (node.field.kind === 'metric') return node;
  if (node.field.kind === 'tag' && node.op !== '!=') return node;
  return null;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export class RunQueryCompiler {
  constructor(
    private readonly kind: DbKind,
    private readonly p: SqlParams,
  ) {}

  private like(expr: string, text: string): string {
    const op = this.kind === 'postgres' ? 'ILIKE' : 'LIKE';
    return `${expr} ${op} ${this.p.add(`%${escapeLike(text)}%`)} ESCAPE '\\'`;
  }

  compile(node: QueryNode): string {
    switch (node.kind) {
      case 'and': {
        // AND is commutative (NULLs included), so the id sets may go first; the SQL text is built in
        // the order its parameters are added, which keeps positional `?` parameters in step.
        const sets = node.items.filter((n) => idSetOf(n));
        const rest = node.items.filter((n) => !idSetOf(n));
        const parts =
          sets.length > 1
            ? [`r.id IN (${sets.map((n) => this.idSet(idSetOf(n)!)).join(' INTERSECT ')})`]
            : sets.map((n) => this.compile(n));
        parts.push(...rest.map((n) => this.compile(n)));
        return `(${parts.join(' AND ')})`;
      }
      case 'or':
        return `(${node.items.map((n) => this.compile(n)).join(' OR ')})`;
      case 'not':
        // NULL (an unknown field) counts as not matching, so NOT of it matches.
        return `(CASE WHEN ${this.compile(node.item)} THEN 1 ELSE 0 END) = 0`;
      case 'text': {
        const cols = ['COALESCE(r.name, r.trained_model_name)', 'r.notes', 'r.task_description'];
        return `(${cols.map((c) => this.like(c, node.text)).join(' OR ')})`;
      }
      case 'compare':
        return this.compare(node.field, node.op, node.values);
    }
  }

  /** The ids of the runs a tag or metric comparison matches (`!=` on a tag: those having that tag). */
  private idSet(node: CompareNode): string {
    const { field, op, values } = node;
    const p = this.p;
    if (field.kind === 'tag') {
      const cond =
        op === '~'
          ? this.like('t.tag', String(values[0].value))
          : op === 'in'
            ? `t.tag IN (${p.list(values.map((v) => String(v.value)))})`
            : `t.tag = ${p.add(String(values[0].value))}`;
      return `SELECT t.run_id FROM run_tags t WHERE ${cond}`;
    }
    const name = p.add((field as { name: string }).name);
    const cond =
      op === 'in'
        ? `s.last IN (${p.list(values.map((v) => v.value))})`
        : `s.last ${SQL_OP[op as keyof typeof SQL_OP]} ${p.add(values[0].value)}`;
    return `SELECT s.run_id FROM run_summaries s WHERE s.name = ${name} AND ${cond}`;
  }

  private compare(field: Field, op: Op, values: Value[]): string {
    switch (field.kind) {
      case 'tag':
      case 'metric':
        return `r.id ${field.kind === 'tag' && op === '!=' ? 'NOT IN' : 'IN'} (${this.idSet({ kind: 'compare', field, op, values })})`;
      case 'config':
        return this.config(field.path, op, values);
      default:
        return this.scalar(TEXT_COLUMNS[field.kind], op, values, false);
    }
  }

  /** A comparison on a column: text compares as text; `~` is a case-insensitive substring. */
  private scalar(expr: string, op: Op, values: Value[], numeric: boolean): string {
    const p = this.p;
    const cast = (v: Value) => (numeric ? Number(v.value) : String(v.value));
    if (op === '~') return this.like(expr, String(values[0].value));
    if (op === 'in') return `${expr} IN (${p.list(values.map(cast))})`;
    const v = values[0];
    if (numeric && v.type !== 'number') return '1 = 0'; // a number column is never equal to text
    return `${expr} ${SQL_OP[op]} ${p.add(cast(v))}`;
  }

  private config(path: string[], op: Op, values: Value[]): string {
    const column = path.length === 1 ? CONFIG_COLUMNS[path[0]] : undefined;
    if (column) return this.scalar(column.expr, op, values, column.numeric);
    if (op === 'in') return `(${values.map((v) => this.config(path, '=', [v])).join(' OR ')})`;
    const v = values[0];
    const numeric = v.type === 'number' && op !== '~';
    const p = this.p;
    if (this.kind === 'postgres') {
      const arr = `{${path.join(',')}}`;
      const typed = `jsonb_typeof(r.config::jsonb #> ${p.add(arr)}::text[])`;
      const text = `(r.config::jsonb #>> ${p.add(arr)}::text[])`;
      if (op === '~') return `(${typed} = 'string' AND ${this.like(text, String(v.value))})`;
      if (numeric)
        return `(CASE WHEN ${typed} = 'number' THEN ${text}::double precision END) ${SQL_OP[op]} ${p.add(v.value)}`;
      return `(CASE WHEN ${typed} IN ('string', 'boolean') THEN ${text} END) ${SQL_OP[op]} ${p.add(String(v.value))}`;
    }
    const jsonPath = `$.${path.map((k) => `"${k}"`).join('.')}`;
    const typed = `json_type(r.config, ${p.add(jsonPath)})`;
    if (op === '~')
      return `(${typed} = 'text' AND ${this.like(`json_extract(r.config, ${p.add(jsonPath)})`, String(v.value))})`;
    if (numeric)
      return `(CASE WHEN ${typed} IN ('integer', 'real') THEN json_extract(r.config, ${p.add(jsonPath)}) END) ${SQL_OP[op]} ${p.add(v.value)}`;
    // Booleans read as true/false, as PostgreSQL's #>> gives them.
    return `(CASE ${typed} WHEN 'text' THEN json_extract(r.config, ${p.add(jsonPath)}) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' END) ${SQL_OP[op]} ${p.add(String(v.value))}`;
  }
}
