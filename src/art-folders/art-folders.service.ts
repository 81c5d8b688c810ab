// ART model folders in and out, through one door every client uses (the CLI, the Python sidecar, a
// notebook): a plan (which run the folder is, which files the server still needs and from where),
// then each file, imported whole or not at all, idempotently; and the run given back in ART's layout.
// The format knowledge is src/art-format/'s; the writes go through the runs, metrics, trajectories and
// checkpoints services, as a TRACKED run's script's would.
import { createHash } from 'node:crypto';

import type { EntityManager } from 'typeorm';

import { historyKey, historyLine, mergeRows, naiveLocalIso, parseHistory } from '../art-format/history';
import { artFileOf, EXPECTED_LAYOUT, stepName, type ArtFile } from '../art-format/layout';
import { readModelJson, writeModelJson } from '../art-format/model-json';
import { writeParquetGroups, type GroupToWrite } from '../art-format/trajectory-files';
import type { CheckpointsService } from '../checkpoints/checkpoints.service';
import type { Database } from '../db/data-source';
import type { TrainingRunRow } from '../db/entities';
import type { ProjectScope } from '../domain/project-scope';
import { isFinal, type TrainingStatus } from '../domain/status-machine';
import { ValidationError } from '../errors';
import type { MetricsService } from '../metrics/metrics.service';
import type { TrainingRun } from '../runs/run.model';
import { updateRun } from '../runs/runs.repo';
import type { RunsService } from '../runs/runs.service';
import { lockGuarded, trackingGuard } from '../runs/write-guard';
import { derivedUuid } from '../trajectories/art-rows';
import type { PreparedGroups, TrajectoriesService } from '../trajectories/trajectories.service';
import { saveFileState, type ArtFoldersRepo, type ExportRow } from './art-folders.repo';
import { ArtDecoder } from './decode-pool';

export interface PlanFile {
  path: string;
  size: number;
  sha256: string;
}

export interface ImportPlan {
  run: { id: number; uuid: string; created: boolean };
  /**
   * Files to send, each from a byte offset (history.jsonl from where the last import stopped, if the
   * client's file still holds the last imported line at `check`; else from 0).
   */
  need: Array<{ path: string; from: number; check?: { offset: number; length: number; sha256: string } }>;
  /** Paths ART does not write, left alone. */
  ignored: string[];
}

export interface FileImport {
  path: string;
  kind: string;
  /** Rows, trajectories or checkpoints this import stored. */
  stored: number;
  /** history.jsonl: bytes of complete lines taken so far; the rest waits for its newline. */
  consumed: number;
  pending: boolean;
}

/** A file of a planned run read and checked (decodeFile), ready for writeFile. */
export interface DecodedFile {
  file: PlanFile & { from: number };
  art: ArtFile;
  bytes: Uint8Array;
  /** A trajectory file's groups, checked and built into rows. */
  groups?: PreparedGroups;
}

export const MAX_PLAN_FILES = 100_000;
const PAGE = 500;

/** A run's identity from its ART folder: the same project and model name always give the same run. */
export function artRunUuid(project: string, name: string): string {
  return derivedUuid('atelier-art-model', project, name);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** ART JSON for a trajectory recorded without it (recordTrajectories): its messages, reward and metadata. */
function artOfPlain(row: ExportRow): Record<string, unknown> {
  const messages = JSON.parse(row.messages) as Array<Record<string, unknown>>;
  const metadata = row.metadata ? (JSON.parse(row.metadata) as Record<string, unknown>) : {};
  const scalars = Object.fromEntries(
    Object.entries(metadata).filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v)),
  );
  return {
    messages_and_choices: messages.map((m) => {
      const message: Record<string, unknown> = { role: m.role, content: m.content ?? null };
      if (m.tool_calls) message.tool_calls = m.tool_calls;
      if (m.tool_call_id) message.tool_call_id = m.tool_call_id;
      if (m.name) message.name = m.name;
      return m.trainable || m.role === 'assistant'
        ? { finish_reason: 'stop', index: 0, logprobs: null, message }
        : message;
    }),
    tools: null,
    additional_histories: [],
    reward: row.reward ?? 0,
    initial_policy_version: null,
    final_policy_version: null,
    metrics: {},
    metadata: scalars,
    logs: [],
  };
}

export function exportArt(row: ExportRow): Record<string, unknown> {
  return row.art ? (JSON.parse(row.art) as Record<string, unknown>) : artOfPlain(row);
}

export class ArtFoldersService {
  constructor(
    private readonly db: Database,
    private readonly repo: ArtFoldersRepo,
    private readonly runs: RunsService,
    private readonly metrics: MetricsService,
    private readonly trajectories: TrajectoriesService,
    private readonly checkpoints: CheckpointsService,
    /** Decodes trajectory files beside the event loop (decode-pool.ts). */
    private readonly decoder: ArtDecoder = new ArtDecoder(),
  ) {}

  /** Ends the decode thread (the server is stopping). */
  close(): Promise<void> {
    return this.decoder.close();
  }

  /** The run of a model folder (made TRACKED on first sight) and what of the folder it still needs. */
  async plan(modelJson: string | null, files: PlanFile[], scope: ProjectScope): Promise<ImportPlan> {
    const TRACKING_API = trackingGuard(scope);
    if (modelJson == null)
      throw ValidationError.of('model.json', 'required', `is missing: expected ${EXPECTED_LAYOUT}`);
    if (files.length > MAX_PLAN_FILES)
      throw ValidationError.of('files', 'max', `at most ${MAX_PLAN_FILES} files per plan, got ${files.length}`);
    const model = readModelJson(modelJson);
    scope.assertMayUse(model.project, 'model.json.project');
    const known = files.filter((f) => artFileOf(f.path));
    if (!known.some((f) => artFileOf(f.path)!.kind !== 'model'))
      throw ValidationError.of(
        'files',
        'layout',
        `hold nothing ART writes besides model.json: expected ${EXPECTED_LAYOUT}`,
      );
    const uuid = artRunUuid(model.project, model.name);
    let run = await this.runs.findByUuid(uuid);
    const created = !run;
    if (!run) {
      run = await this.runs.create(
        {
          uuid,
          mode: 'tracked',
          projectName: model.project,
          modelName: model.baseModel ?? model.name,
          trainedModelName: model.name,
          taskDescription: `ART model ${model.project}/${model.name}, imported from its .art folder`,
          config: { art: { runId: model.runId, model: model.fields } },
        },
        scope,
      );
    }
    if (run.status === 'pending')
      run = await this.runs.transition(run.id, 'training', 'imported from an ART folder', {}, TRACKING_API);
    const state = new Map((await this.repo.files(run.id)).map((f) => [f.path, f]));
    const need: ImportPlan['need'] = [];
    const order = (p: string) => {
      const f = artFileOf(p)!;
      return f.kind === 'trajectories' ? (f.format === 'parquet' ? 3 : 2) : f.kind === 'checkpoint' ? 4 : 1;
    };
    for (const f of [...known].sort((a, b) => order(a.path) - order(b.path) || a.path.localeCompare(b.path))) {
      const kind = artFileOf(f.path)!.kind;
      if (kind === 'model') continue;
      const old = state.get(f.path);
      if (old && old.sha256 === f.sha256 && old.size === f.size) continue;
      // history.jsonl grows by appending: continue where the last import stopped, unless the file shrank.
      const tail = /^(\d+):(\d+):([0-9a-f]{64})$/.exec(old?.tail ?? '');
      if (kind === 'history' && old && tail && f.size >= old.consumed)
        need.push({
          path: f.path,
          from: old.consumed,
          check: { offset: Number(tail[1]), length: Number(tail[2]), sha256: tail[3] },
        });
      else need.push({ path: f.path, from: 0 });
    }
    return {
      run: { id: run.id, uuid: run.uuid, created },
      need,
      ignored: files.filter((f) => !artFileOf(f.path)).map((f) => f.path),
    };
  }

  /**
   * Runs fn's imports (importFile, one after another) in one transaction, each file still all or
   * nothing (a SAVEPOINT each): a batch request commits once, not once per file.
   */
  inOneTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.db.writes.batch(fn);
  }

  /** Imports one file of a planned run, all or nothing; what it took is remembered for the next plan. */
  async importFile(
    run: TrainingRun,
    file: PlanFile & { from: number },
    bytes: Uint8Array,
    scope: ProjectScope,
  ): Promise<FileImport> {
    return this.writeFile(run, await this.decodeFile(run, file, bytes), scope);
  }

  /**
   * A file read and checked, nothing written: the CPU work of an import (Parquet, zstd, ART's rules,
   * the rows), done outside the write lock. Bad content fails here, naming the file.
   */
  async decodeFile(run: TrainingRun, file: PlanFile & { from: number }, bytes: Uint8Array): Promise<DecodedFile> {
    const art = artFileOf(file.path);
    if (!art)
      throw ValidationError.of('path', 'layout', `${file.path} is not a file ART writes: expected ${EXPECTED_LAYOUT}`);
    if (run.mode !== 'tracked') throw ValidationError.of('run', 'mode', 'ART folders import into TRACKED runs only');
    if (art.kind !== 'trajectories') return { file, art, bytes };
    const groups = await this.decoder.decode({
      bytes,
      format: art.format,
      path: file.path,
      step: art.step,
      split: art.split,
      runUuid: run.uuid,
    });
    return { file, art, bytes, groups };
  }

  /** Writes a decoded file, all or nothing; what it took is remembered for the next plan. */
  async writeFile(run: TrainingRun, decoded: DecodedFile, scope: ProjectScope): Promise<FileImport> {
    const TRACKING_API = trackingGuard(scope);
    const { file, art, bytes } = decoded;
    let stored = 0;
    let consumed = file.size;
    let pending = false;
    let tail: string | null = null;
    let step: number | null = null;
    if (art.kind === 'history') {
      const parsed = parseHistory(new TextDecoder().decode(bytes), file.path);
      for (const [split, steps] of mergeRows(parsed.rows)) {
        const points = [...steps].map(([step, values]) => ({
          step,
          trainingLoss: values['loss/train'] ?? values[`${split}/loss`] ?? null,
          values,
        }));
        for (let i = 0; i < points.length; i += 1000)
          await this.metrics.record(run.id, points.slice(i, i + 1000), TRACKING_API, split, { keepStored: true });
      }
      stored = parsed.rows.length;
      consumed = file.from + parsed.consumed;
      pending = parsed.pending;
      const taken = bytes.subarray(0, parsed.consumed);
      const start = taken.lastIndexOf(0x0a, taken.length - 2) + 1;
      if (parsed.consumed > 0) tail = `${file.from + start}:${taken.length - start}:${sha256(taken.subarray(start))}`;
      else {
        // nothing complete in this part: keep what the last import knew
        const old = (await this.repo.files(run.id)).find((f) => f.path === file.path);
        tail = old?.tail ?? null;
      }
    } else if (art.kind === 'trajectories') {
      // The file's import state (and ART's current step as the run's) in the same transaction as its groups.
      const result = await this.trajectories.recordGroups(run.id, art.step, art.split, decoded.groups!, {
        guard: TRACKING_API,
        replace: true,
        alsoWrite: (em, row) => this.saveImported(em, row, file, art.step, file.size, null),
      });
      return { path: file.path, kind: art.kind, stored: result.recorded, consumed, pending };
    } else if (art.kind === 'checkpoint') {
      await this.checkpoints.record(
        run.id,
        {
          step: art.step,
          name: `${run.trainedModelName ?? run.uuid}@${art.step}`,
          uri: `checkpoints/${stepName(art.step)}`,
        },
        TRACKING_API,
      );
      stored = 1;
      step = art.step;
    } else {
      return { path: file.path, kind: art.kind, stored: 0, consumed, pending };
    }
    // What was taken, and ART's current step (the highest it wrote) as the run's, in one write.
    await this.db.writes.run(async (tx) => {
      const row = await lockGuarded(tx.em, this.db.kind, run.id, TRACKING_API);
      await this.saveImported(tx.em, row, file, step, consumed, tail);
    });
    return { path: file.path, kind: art.kind, stored, consumed, pending };
  }

  /** Remembers what of a file was taken, and moves the run's current step up to ART's (the highest it wrote). */
  private async saveImported(
    em: EntityManager,
    row: TrainingRunRow,
    file: PlanFile,
    step: number | null,
    consumed: number,
    tail: string | null,
  ): Promise<void> {
    if (step !== null && !isFinal(row.status as TrainingStatus) && (row.currentStep ?? -1) < step)
      await updateRun(em, row.id, { currentStep: step });
    await saveFileState(em, {
      runId: row.id,
      path: file.path,
      size: file.size,
      // a history.jsonl taken only in part is not the file the client has: the next plan asks again
      sha256: consumed === file.size ? file.sha256 : '',
      consumed,
      tail,
    });
  }

  // ---- export: the run in ART's layout ----

  /** The files of the run's ART folder, relative to it. */
  async exportManifest(runId: number): Promise<string[]> {
    const steps = [...(await this.repo.groupSteps(runId)), ...(await this.repo.plainSteps(runId))];
    const unique = [...new Set(steps.map((s) => `trajectories/${s.split}/${stepName(s.step)}.parquet`))].sort();
    const checkpoints = (await this.checkpoints.list(runId, null, 100_000)).map(
      (c) => `checkpoints/${stepName(c.step)}`,
    );
    return ['model.json', 'history.jsonl', ...unique, ...checkpoints];
  }

  /** model.json: the stored model.json fields (never a key), else what the run says. */
  async exportModelJson(run: TrainingRun): Promise<string> {
    const art = (run.config.art ?? null) as { model?: Record<string, unknown> } | null;
    const fields = art?.model ?? {
      entity: null,
      id: null,
      run_id: null,
      config: null,
      trainable: true,
      base_model: run.modelName,
    };
    return writeModelJson(fields, run.trainedModelName ?? run.uuid, run.projectName);
  }

  /** history.jsonl: one row per (split, step) with its named values, by step (train before other splits). */
  async exportHistory(runId: number): Promise<string> {
    const splits = [...new Set((await this.metrics.names(runId)).map((n) => n.split))].sort((a, b) =>
      a === 'train' ? -1 : b === 'train' ? 1 : a.localeCompare(b),
    );
    const rows: Array<{ step: number; order: number; line: string }> = [];
    for (const [order, split] of splits.entries())
      for (const bucket of await this.metrics.history(runId, null, split)) {
        const p = bucket.last;
        const values: Record<string, number> = {};
        for (const [name, value] of Object.entries(p.values)) values[historyKey(name, split)] = value;
        if (p.trainingLoss != null && !('loss/train' in values) && !(`${split}/loss` in values))
          values['loss/train'] = p.trainingLoss;
        if (Object.keys(values).length === 0) continue;
        rows.push({ step: p.step, order, line: historyLine(values, p.step, naiveLocalIso(p.recordedAt)) });
      }
    return rows
      .sort((a, b) => a.step - b.step || a.order - b.order)
      .map((r) => r.line)
      .join('');
  }

  /** trajectories/<split>/<step>.parquet as ART writes it. */
  async exportParquet(runId: number, split: string, step: number): Promise<Uint8Array> {
    const groups = new Map<number, GroupToWrite>();
    for await (const row of this.rows(runId, { split, step })) {
      const index = row.groupIndex ?? 0;
      let g = groups.get(index);
      if (!g) {
        g = {
          index,
          group: row.groupArt ? JSON.parse(row.groupArt) : { exceptions: [], metadata: {}, metrics: {}, logs: [] },
          trajectories: [],
        };
        groups.set(index, g);
      }
      g.trajectories.push(exportArt(row) as GroupToWrite['trajectories'][number]);
    }
    return writeParquetGroups([...groups.values()].sort((a, b) => a.index - b.index));
  }

  /** A run's trajectories a page at a time, by id: memory stays one page whatever the run holds. */
  async *rows(runId: number, filter: { split?: string | null; step?: number | null }): AsyncGenerator<ExportRow> {
    let after = 0;
    for (;;) {
      const page = await this.repo.page(runId, filter, after, PAGE);
      for (const row of page) yield row;
      if (page.length < PAGE) return;
      after = page[page.length - 1].id;
    }
  }

  /** Which run an id names: its uuid, or Atelier's numeric id. */
  async resolveRun(id: string, scope: ProjectScope): Promise<TrainingRun | null> {
    const run = /^\d+$/.test(id) ? await this.runs.find(Number(id)) : await this.runs.findByUuid(id);
    // Another project's run does not exist for a key scoped to projects (as in GraphQL).
    return scope.visible(run);
  }

  static sha256 = sha256;
}
