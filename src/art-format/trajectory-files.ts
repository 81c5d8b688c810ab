// ART's trajectory files, read into ART JSON groups and written back:
// - trajectories/<split>/<step:04d>.parquet (ART 0.5.x, PeterWofford/ART 679b236e
//   src/art/utils/trajectory_logging.py write_trajectory_groups_parquet): one row per trajectory,
//   zstd; a choice is kept as its message with trainable=true; logprobs, finish_reason, additional
//   histories, exceptions and empty groups are not. Columns a newer ART adds are kept on the trajectory.
// - .jsonl (ART 0.4.x, v0.4.12 e3f79680 serialize_trajectory_groups): one group JSON a line.
// - .yaml (ART 0.3.x, v0.3.11 126fa27b: yaml.dump of the groups); 0.5's trajectory_migration reads
//   JSONL first and falls back to YAML, whatever the name, and so does this.
// Atelier's own export adds two columns ART's readers ignore (they read the columns they know):
// `atelier_art` (the trajectory's ART JSON) and `atelier_group` (its group's), so what ART's Parquet
// drops survives a round trip.
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { parse as parseYaml } from 'yaml';

import { ValidationError } from '../errors';
import { zstdCompress, zstdDecompress, zstdReady } from './zstd';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A group as ART JSON, with the index ART gave it in its step (Parquet's group_index, else its position). */
export interface ArtFileGroup {
  index: number;
  trajectories: JsonObject[];
  metadata?: JsonObject;
  metrics?: JsonObject;
  logs?: string[];
  exceptions?: Json[];
}

/** The columns ART 0.5.17 writes, in its order. */
export const ART_COLUMNS = [
  'group_index',
  'group_metadata',
  'group_metrics',
  'group_logs',
  'reward',
  'metrics',
  'metadata',
  'tools',
  'logs',
  'messages',
] as const;
const KNOWN = new Set<string>([
  ...ART_COLUMNS,
  'atelier_art',
  'atelier_group',
  'initial_policy_version',
  'final_policy_version',
]);
const MESSAGE_FIELDS = new Set(['role', 'content', 'tool_calls', 'tool_call_id', 'trainable']);

function plain(value: unknown): Json {
  if (typeof value === 'bigint') return Number(value);
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value as Json;
}

function jsonColumn(value: unknown, where: string): JsonObject | Json[] | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') return plain(value) as JsonObject;
  try {
    return JSON.parse(value) as JsonObject;
  } catch {
    throw ValidationError.of(where, 'json', 'must hold JSON text, as ART writes it (json.dumps)');
  }
}

function messageOf(m: Record<string, unknown>, where: string): JsonObject {
  const message: JsonObject = { role: plain(m.role), content: plain(m.content) };
  const calls = jsonColumn(m.tool_calls, `${where}.tool_calls`);
  if (calls) message.tool_calls = calls as Json[];
  if (typeof m.tool_call_id === 'string' && m.tool_call_id) message.tool_call_id = m.tool_call_id;
  for (const [k, v] of Object.entries(m))
    if (!MESSAGE_FIELDS.has(k) && v !== null && v !== undefined) message[k] = plain(v);
  // A trained turn was a Choice: its message comes back as one (finish_reason is not in the file).
  if (m.trainable === true) return { finish_reason: 'stop', index: 0, logprobs: null, message };
  return message;
}

/** The rows of an ART Parquet file as groups. `file` names the file in errors. */
export async function readParquetGroups(bytes: Uint8Array, file: string): Promise<ArtFileGroup[]> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let rows: Record<string, unknown>[];
  try {
    await zstdReady();
    const metadata = parquetMetadata(buffer);
    rows = (await parquetReadObjects({
      file: buffer,
      metadata,
      compressors: { ...compressors, ZSTD: (input, length) => zstdDecompress(input, length, compressors.ZSTD!) },
    })) as Record<string, unknown>[];
  } catch (err) {
    throw ValidationError.of(
      file,
      'parquet',
      `is not a readable Parquet file (${err instanceof Error ? err.message : String(err)}); ART 0.5 writes trajectories/<split>/<step>.parquet with pyarrow`,
    );
  }
  const groups = new Map<number, ArtFileGroup>();
  rows.forEach((row, i) => {
    const where = `${file}:row ${i}`;
    if (row.reward == null && row.messages == null) return; // ART's reader skips these too
    const index = row.group_index == null ? 0 : Number(row.group_index);
    let group = groups.get(index);
    if (!group) {
      const stored = jsonColumn(row.atelier_group, `${where}.atelier_group`) as JsonObject | null;
      group = stored
        ? { index, trajectories: [], ...(stored as Omit<ArtFileGroup, 'index' | 'trajectories'>) }
        : {
            index,
            trajectories: [],
            metadata: (jsonColumn(row.group_metadata, `${where}.group_metadata`) as JsonObject) ?? {},
            metrics: (jsonColumn(row.group_metrics, `${where}.group_metrics`) as JsonObject) ?? {},
            logs: Array.isArray(row.group_logs) ? row.group_logs.map(String) : [],
            exceptions: [],
          };
      groups.set(index, group);
    }
    const stored = jsonColumn(row.atelier_art, `${where}.atelier_art`);
    if (stored) return void group.trajectories.push(stored as JsonObject);
    const messages = Array.isArray(row.messages) ? row.messages : [];
    const t: JsonObject = {
      messages_and_choices: messages.map((m, j) => messageOf(m as Record<string, unknown>, `${where}.messages.${j}`)),
      tools: jsonColumn(row.tools, `${where}.tools`) as Json[] | null,
      additional_histories: [],
      reward: row.reward == null ? 0 : Number(row.reward),
      initial_policy_version: row.initial_policy_version == null ? null : Number(row.initial_policy_version),
      final_policy_version: row.final_policy_version == null ? null : Number(row.final_policy_version),
      metrics: (jsonColumn(row.metrics, `${where}.metrics`) as JsonObject) ?? {},
      metadata: (jsonColumn(row.metadata, `${where}.metadata`) as JsonObject) ?? {},
      logs: Array.isArray(row.logs) ? row.logs.map(String) : [],
    };
    // Columns a newer ART adds (exchanges, …) stay on the trajectory as they came.
    for (const [k, v] of Object.entries(row)) if (!KNOWN.has(k)) t[k] = plain(v);
    group.trajectories.push(t);
  });
  return [...groups.values()].sort((a, b) => a.index - b.index);
}

function groupOf(value: unknown, index: number, where: string): ArtFileGroup {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw ValidationError.of(where, 'type', 'must be a group object ({"trajectories": [...]})');
  const g = value as Record<string, unknown>;
  if (!Array.isArray(g.trajectories))
    throw ValidationError.of(`${where}.trajectories`, 'required', 'must be a list, as ART writes each group');
  return {
    index,
    trajectories: g.trajectories as JsonObject[],
    ...(g.metadata && typeof g.metadata === 'object' ? { metadata: g.metadata as JsonObject } : {}),
    ...(g.metrics && typeof g.metrics === 'object' ? { metrics: g.metrics as JsonObject } : {}),
    ...(Array.isArray(g.logs) ? { logs: g.logs.map(String) } : {}),
    ...(Array.isArray(g.exceptions) ? { exceptions: g.exceptions as Json[] } : {}),
  };
}

/** ART 0.3's YAML or 0.4's JSONL groups, told apart as 0.5's deserialize_trajectory_groups does: JSONL first. */
export function readTextGroups(text: string, file: string): ArtFileGroup[] {
  const lines = text
    .trim()
    .split('\n')
    .filter((l) => l.trim());
  let loaded: unknown[] | null = [];
  for (const line of lines) {
    try {
      loaded.push(JSON.parse(line));
    } catch {
      loaded = null;
      break;
    }
  }
  if (loaded === null) {
    try {
      const y = parseYaml(text, { maxAliasCount: 100 }) as unknown;
      loaded = y === null ? [] : (y as unknown[]);
    } catch (err) {
      throw ValidationError.of(
        file,
        'format',
        `is neither JSONL groups (ART 0.4) nor YAML (ART 0.3): ${err instanceof Error ? err.message.split('\n')[0] : err}`,
      );
    }
    if (!Array.isArray(loaded))
      throw ValidationError.of(file, 'type', 'must hold a YAML list of groups (ART 0.3 yaml.dump)');
  }
  return loaded.map((g, i) => groupOf(g, i, `${file}:group ${i}`));
}

/** Any of ART's trajectory files by its format. */
export async function readTrajectoryFile(
  bytes: Uint8Array,
  format: 'parquet' | 'jsonl' | 'yaml',
  file: string,
): Promise<ArtFileGroup[]> {
  if (format === 'parquet') return readParquetGroups(bytes, file);
  return readTextGroups(new TextDecoder().decode(bytes), file);
}

/** A group as stored, to write: ART JSON of the group (no trajectories) and of each trajectory. */
export interface GroupToWrite {
  index: number;
  group: JsonObject;
  trajectories: JsonObject[];
}

function flatten(item: JsonObject): Record<string, unknown> {
  const isChoice = item.role === undefined && typeof item.message === 'object' && item.message !== null;
  const m = (isChoice ? item.message : item) as JsonObject;
  const calls = m.tool_calls;
  return {
    role: typeof m.role === 'string' ? m.role : isChoice ? 'assistant' : null,
    content: typeof m.content === 'string' ? m.content : m.content == null ? null : JSON.stringify(m.content),
    tool_calls: Array.isArray(calls) && calls.length ? JSON.stringify(calls) : null,
    tool_call_id: !isChoice && typeof m.tool_call_id === 'string' ? m.tool_call_id : null,
    trainable: isChoice,
  };
}

const nonEmpty = (o: unknown) =>
  o && typeof o === 'object' && (Array.isArray(o) ? o.length > 0 : Object.keys(o).length > 0);

/** Parquet bytes as ART 0.5.17 writes them (its schema, its column order, zstd), plus atelier_art and atelier_group. */
export async function writeParquetGroups(groups: GroupToWrite[]): Promise<Uint8Array> {
  await zstdReady();
  const rows = groups.flatMap((g) =>
    g.trajectories.map((t) => ({
      group_index: BigInt(g.index),
      group_metadata: nonEmpty(g.group.metadata) ? JSON.stringify(g.group.metadata) : null,
      group_metrics: nonEmpty(g.group.metrics) ? JSON.stringify(g.group.metrics) : null,
      group_logs: nonEmpty(g.group.logs) ? (g.group.logs as string[]) : null,
      reward: typeof t.reward === 'number' ? t.reward : 0,
      metrics: nonEmpty(t.metrics) ? JSON.stringify(t.metrics) : null,
      metadata: nonEmpty(t.metadata) ? JSON.stringify(t.metadata) : null,
      tools: nonEmpty(t.tools) ? JSON.stringify(t.tools) : null,
      logs: nonEmpty(t.logs) ? (t.logs as string[]) : null,
      messages: (Array.isArray(t.messages_and_choices) ? t.messages_and_choices : []).map((m) =>
        flatten(m as JsonObject),
      ),
      atelier_art: JSON.stringify(t),
      atelier_group: JSON.stringify(g.group),
    })),
  );
  const column = (name: keyof (typeof rows)[number]) => rows.map((r) => r[name]);
  const str = (name: string) => ({
    name,
    type: 'BYTE_ARRAY' as const,
    converted_type: 'UTF8' as const,
    repetition_type: 'OPTIONAL' as const,
  });
  const list = (name: string, children: number) => [
    { name, repetition_type: 'OPTIONAL' as const, converted_type: 'LIST' as const, num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED' as const, num_children: 1 },
    ...(children === 0 ? [str('element')] : []),
  ];
  const schema = [
    { name: 'schema', num_children: 12 },
    { name: 'group_index', type: 'INT64' as const, repetition_type: 'OPTIONAL' as const },
    str('group_metadata'),
    str('group_metrics'),
    ...list('group_logs', 0),
    { name: 'reward', type: 'DOUBLE' as const, repetition_type: 'OPTIONAL' as const },
    str('metrics'),
    str('metadata'),
    str('tools'),
    ...list('logs', 0),
    ...list('messages', 5),
    { name: 'element', repetition_type: 'OPTIONAL' as const, num_children: 5 },
    str('role'),
    str('content'),
    str('tool_calls'),
    str('tool_call_id'),
    { name: 'trainable', type: 'BOOLEAN' as const, repetition_type: 'OPTIONAL' as const },
    str('atelier_art'),
    str('atelier_group'),
  ];
  const names = [...ART_COLUMNS, 'atelier_art', 'atelier_group'] as const;
  const buffer = parquetWriteBuffer({
    columnData: names.map((name) => ({ name, data: column(name) as never })),
    schema,
    codec: 'ZSTD',
    compressors: { ZSTD: zstdCompress },
    createdBy: 'atelier (ART 0.5.17 trajectory Parquet layout)',
  });
  return new Uint8Array(buffer);
}
