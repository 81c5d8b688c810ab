// The run search language of `runs(filter: { query })`, parsed into a tree (pure: no SQL here; see
// runs/run-query-sql.ts). Anchored on MLflow's search_runs (`metrics.x > 0.5 and params.lr = '1e-5'`)
// and W&B's run filters, with what MLflow users ask for most: OR, IN and parentheses.
//
//   query      := or
//   or         := and ( OR and )*
//   and        := unary ( [AND] unary )*            -- terms side by side are ANDed
//   unary      := NOT unary | '(' or ')' | comparison | text
//   comparison := field op value | field IN '(' value ( ',' value )* ')'
//   field      := status | project | tag | group | name | model | mode
//               | config.<key>[.<key>…]             -- a run setting or a key of its config JSON
//               | metrics.<split>/<name>            -- the metric's last value; metrics."<name>" for odd names
//   op         := = | != | > | >= | < | <= | ~      -- ~ : contains, case-insensitive
//   value      := number | "string" | 'string' | word
//   text       := "string" | 'string' | word        -- free text over name, notes and description
//
// Keywords (AND, OR, NOT, IN) are case-insensitive. Anything else is refused with where it went
// wrong and what was expected there.

export const STATUS_VALUES = [
  'pending',
  'generating',
  'collecting',
  'scoring',
  'training',
  'completed',
  'failed',
  'cancelled',
] as const;

export const PLAIN_FIELDS = ['status', 'project', 'tag', 'group', 'name', 'model', 'mode'] as const;
export type PlainField = (typeof PLAIN_FIELDS)[number];

export type Op = '=' | '!=' | '>' | '>=' | '<' | '<=' | '~' | 'in';

export type Value = { type: 'number'; value: number } | { type: 'string'; value: string };

export type Field = { kind: PlainField } | { kind: 'config'; path: string[] } | { kind: 'metric'; name: string };

export type QueryNode =
  | { kind: 'and' | 'or'; items: QueryNode[] }
  | { kind: 'not'; item: QueryNode }
  | { kind: 'text'; text: string }
  | { kind: 'compare'; field: Field; op: Op; values: Value[] };

export const QUERY_LIMITS = { length: 2000, terms: 50, depth: 16, inValues: 100 } as const;

/** A query the language refuses: `position` is the 1-based character where it went wrong. */
export class QuerySyntaxError extends Error {
  constructor(
    readonly position: number,
    readonly rule: 'syntax' | 'unknown_field' | 'invalid_value' | 'too_big',
    readonly detail: string,
  ) {
    super(`at character ${position}: ${detail}`);
    this.name = 'QuerySyntaxError';
  }
}

type Token =
  | { t: 'word'; text: string; at: number; end: number }
  | { t: 'string'; text: string; at: number; end: number }
  | { t: 'op'; text: Exclude<Op, 'in'>; at: number; end: number }
  | { t: '(' | ')' | ','; at: number; end: number }
  | { t: 'end'; at: number; end: number };

const OPS = ['>=', '<=', '!=', '=', '>', '<', '~'] as const;
const SPECIAL = /[\s()=!<>~,"']/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const METRIC = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}\/[A-Za-z0-9_./:@+=()[\] -]{1,200}$/;

function describe(tok: Token): string {
  switch (tok.t) {
    case 'end':
      return 'the end of the query';
    case 'word':
      return `'${tok.text}'`;
    case 'string':
      return `the string "${tok.text}"`;
    case 'op':
      return `'${tok.text}'`;
    default:
      return `'${tok.t}'`;
  }
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      out.push({ t: c, at: i, end: i + 1 });
      i++;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (op) {
      out.push({ t: 'op', text: op, at: i, end: i + op.length });
      i += op.length;
      continue;
    }
    if (c === '!') throw new QuerySyntaxError(i + 1, 'syntax', "expected '!=' after '!'");
    if (c === '"' || c === "'") {
      let text = '';
      let j = i + 1;
      for (;;) {
        if (j >= src.length) throw new QuerySyntaxError(i + 1, 'syntax', `this string has no closing ${c}`);
        const d = src[j];
        if (d === '\\' && j + 1 < src.length) {
          text += src[j + 1];
          j += 2;
          continue;
        }
        if (d === c) break;
        text += d;
        j++;
      }
      out.push({ t: 'string', text, at: i, end: j + 1 });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < src.length && !SPECIAL.test(src[j])) j++;
    out.push({ t: 'word', text: src.slice(i, j), at: i, end: j });
    i = j;
  }
  out.push({ t: 'end', at: src.length, end: src.length });
  return out;
}

const keyword = (tok: Token, k: string) => tok.t === 'word' && tok.text.toUpperCase() === k;

class Parser {
  private i = 0;
  private terms = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.i];
  }

  private next(): Token {
    return this.tokens[this.i++];
  }

  private fail(tok: Token, expected: string): never {
    throw new QuerySyntaxError(tok.at + 1, 'syntax', `expected ${expected}, found ${describe(tok)}`);
  }

  parse(): QueryNode {
    const node = this.or(0);
    const tok = this.peek();
    if (tok.t !== 'end') this.fail(tok, tok.t === ')' ? "no ')' here: it closes nothing" : 'AND, OR or the end');
    return node;
  }

  private or(depth: number): QueryNode {
    const items = [this.and(depth)];
    while (keyword(this.peek(), 'OR')) {
      this.next();
      items.push(this.and(depth));
    }
    return items.length === 1 ? items[0] : { kind: 'or', items };
  }

  private and(depth: number): QueryNode {
    const items = [this.unary(depth)];
    for (;;) {
      const tok = this.peek();
      if (keyword(tok, 'AND')) {
        this.next();
        items.push(this.unary(depth));
      } else if (tok.t === 'word' || tok.t === 'string' || tok.t === '(') {
        if (keyword(tok, 'OR')) break;
        items.push(this.unary(depth));
      } else break;
    }
    return items.length === 1 ? items[0] : { kind: 'and', items };
  }

  private unary(depth: number): QueryNode {
    if (depth > QUERY_LIMITS.depth)
      throw new QuerySyntaxError(this.peek().at + 1, 'too_big', `nested deeper than ${QUERY_LIMITS.depth} levels`);
    const tok = this.peek();
    if (keyword(tok, 'NOT')) {
      this.next();
      return { kind: 'not', item: this.unary(depth + 1) };
    }
    if (tok.t === '(') {
      this.next();
      const inner = this.or(depth + 1);
      const close = this.next();
      if (close.t !== ')') this.fail(close, "')' or AND/OR");
      return inner;
    }
    if (++this.terms > QUERY_LIMITS.terms)
      throw new QuerySyntaxError(tok.at + 1, 'too_big', `more than ${QUERY_LIMITS.terms} terms`);
    if (tok.t === 'string') {
      this.next();
      return { kind: 'text', text: tok.text };
    }
    if (tok.t !== 'word' || ['AND', 'OR', 'IN'].includes(tok.text.toUpperCase()))
      this.fail(tok, 'a field comparison, a word or a "quoted string"');
    this.next();
    // `metrics."odd name"`: the prefix and the string touch.
    let fieldText = tok.text;
    const after = this.peek();
    if ((tok.text === 'metrics.' || tok.text === 'config.') && after.t === 'string' && after.at === tok.end) {
      this.next();
      fieldText = tok.text + after.text;
    }
    const opTok = this.peek();
    const isIn = keyword(opTok, 'IN');
    if (opTok.t !== 'op' && !isIn) {
      if (/^(config|metrics)\./i.test(fieldText))
        this.fail(opTok, `an operator (= != > >= < <= ~ IN) after ${fieldText}`);
      return { kind: 'text', text: fieldText };
    }
    const field = parseField(fieldText, tok.at);
    this.next();
    if (isIn) {
      const open = this.next();
      if (open.t !== '(') this.fail(open, "'(' after IN");
      const values = [this.value(field, opTok)];
      for (;;) {
        const sep = this.next();
        if (sep.t === ')') break;
        if (sep.t !== ',') this.fail(sep, "',' or ')'");
        values.push(this.value(field, opTok));
        if (values.length > QUERY_LIMITS.inValues)
          throw new QuerySyntaxError(sep.at + 1, 'too_big', `more than ${QUERY_LIMITS.inValues} values in IN`);
      }
      return { kind: 'compare', field, op: 'in', values: values.map((v) => v.value) };
    }
    const op = (opTok as { text: Exclude<Op, 'in'> }).text;
    checkOp(field, op, fieldText, opTok.at);
    const v = this.value(field, opTok);
    if (op === '~' && v.value.type !== 'string')
      throw new QuerySyntaxError(v.at + 1, 'invalid_value', `~ (contains) takes text, found the number ${v.raw}`);
    return { kind: 'compare', field, op, values: [v.value] };
  }

  private value(field: Field, opTok: Token): { value: Value; at: number; raw: string } {
    const tok = this.next();
    if (tok.t !== 'word' && tok.t !== 'string')
      this.fail(tok, `a value after ${opTok.t === 'op' ? `'${opTok.text}'` : 'IN'}`);
    const raw = tok.text;
    const value: Value =
      tok.t === 'word' && NUMBER.test(raw) ? { type: 'number', value: Number(raw) } : { type: 'string', value: raw };
    if (value.type === 'number' && !Number.isFinite(value.value))
      throw new QuerySyntaxError(tok.at + 1, 'invalid_value', `${raw} is not a finite number`);
    checkValue(field, value, tok.at);
    return { value, at: tok.at, raw };
  }
}

function parseField(text: string, at: number): Field {
  const lower = text.toLowerCase();
  if ((PLAIN_FIELDS as readonly string[]).includes(lower)) return { kind: lower as PlainField };
  if (lower.startsWith('config.')) {
    const path = text.slice('config.'.length).split('.');
    if (path.length > 8 || path.some((k) => !KEY.test(k)))
      throw new QuerySyntaxError(
        at + 1,
        'unknown_field',
        `expected config.<key>, keys of letters, digits, _ and -, found '${text}'`,
      );
    return { kind: 'config', path };
  }
  if (lower.startsWith('metrics.')) {
    const name = text.slice('metrics.'.length);
    if (!METRIC.test(name))
      throw new QuerySyntaxError(
        at + 1,
        'unknown_field',
        `expected metrics.<split>/<name>, e.g. metrics.val/reward, found '${text}'`,
      );
    return { kind: 'metric', name };
  }
  throw new QuerySyntaxError(
    at + 1,
    'unknown_field',
    `expected a field (${PLAIN_FIELDS.join(', ')}, config.<key>, metrics.<split>/<name>), found '${text}'`,
  );
}

const TEXT_OPS: Record<PlainField, Op[]> = {
  status: ['=', '!='],
  mode: ['=', '!='],
  tag: ['=', '!=', '~'],
  project: ['=', '!=', '~'],
  group: ['=', '!=', '~'],
  name: ['=', '!=', '~'],
  model: ['=', '!=', '~'],
};

function checkOp(field: Field, op: Exclude<Op, 'in'>, text: string, at: number): void {
  let allowed: Op[];
  if (field.kind === 'config') allowed = ['=', '!=', '>', '>=', '<', '<=', '~'];
  else if (field.kind === 'metric') allowed = ['=', '!=', '>', '>=', '<', '<='];
  else allowed = TEXT_OPS[field.kind];
  if (!allowed.includes(op))
    throw new QuerySyntaxError(
      at + 1,
      'syntax',
      `expected one of ${allowed.join(' ')} or IN after ${text}, found '${op}'`,
    );
}

function checkValue(field: Field, value: Value, at: number): void {
  if (field.kind === 'metric' && value.type !== 'number')
    throw new QuerySyntaxError(at + 1, 'invalid_value', `expected a number for metrics.${field.name}`);
  if (field.kind === 'status' && !(STATUS_VALUES as readonly string[]).includes(String(value.value).toLowerCase()))
    throw new QuerySyntaxError(at + 1, 'invalid_value', `expected a status (${STATUS_VALUES.join(', ')})`);
  if (field.kind === 'mode' && !['pipeline', 'tracked'].includes(String(value.value).toLowerCase()))
    throw new QuerySyntaxError(at + 1, 'invalid_value', 'expected a mode (pipeline, tracked)');
}

/** Parses a search query; an empty one (only spaces) is null: every run. Throws QuerySyntaxError. */
export function parseRunQuery(src: string): QueryNode | null {
  if (src.length > QUERY_LIMITS.length)
    throw new QuerySyntaxError(QUERY_LIMITS.length + 1, 'too_big', `longer than ${QUERY_LIMITS.length} characters`);
  const tokens = tokenize(src);
  if (tokens.length === 1) return null;
  const node = new Parser(tokens).parse();
  return normalize(node);
}

/** Status and mode values as stored (lower case). */
function normalize(node: QueryNode): QueryNode {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, items: node.items.map(normalize) };
    case 'not':
      return { kind: 'not', item: normalize(node.item) };
    case 'compare':
      if (node.field.kind === 'status' || node.field.kind === 'mode')
        return {
          ...node,
          values: node.values.map((v) => ({ type: 'string', value: String(v.value).toLowerCase() })),
        };
      return node;
    default:
      return node;
  }
}
