// SQL of ART folder import and export: what each imported file was, and the reads export and the
// trajectories.jsonl stream page through (keyset by id, a page at a time: constant memory).
import type { DataSource, EntityManager } from 'typeorm';

import type { DbKind } from '../db/data-source';
import { ArtImportFileEntity, type ArtImportFileRow } from '../db/entities';
import { nowStored } from '../db/timestamps';

export interface ExportRow {
  id: number;
  split: string;
  step: number | null;
  groupIndex: number | null;
  groupArt: string | null;
  art: string | null;
  messages: string;
  reward: number | null;
  metadata: string | null;
}

export class ArtFoldersRepo {
  constructor(
    private readonly ds: DataSource,
    private readonly kind: DbKind,
  ) {}

  private ph(i: number): string {
    return this.kind === 'postgres' ? `$${i}` : '?';
  }

  files(runId: number): Promise<ArtImportFileRow[]> {
    return this.ds.getRepository(ArtImportFileEntity).find({ where: { runId }, order: { path: 'ASC' } });
  }

  /** (split, step) pairs that hold ART groups, ascending. */
  async groupSteps(runId: number): Promise<Array<{ split: string; step: number }>> {
    const rows: Array<{ split: string; step: number | string }> = await this.ds.query(
      `SELECT DISTINCT split, step FROM trajectory_groups WHERE run_id = ${this.ph(1)} ORDER BY split, step`,
      [runId],
    );
    return rows.map((r) => ({ split: r.split, step: Number(r.step) }));
  }

  /** (split, step) pairs of trajectories without an ART group (recorded through recordTrajectories). */
  async plainSteps(runId: number): Promise<Array<{ split: string; step: number }>> {
    const rows: Array<{ split: string; step: number | string }> = await this.ds.query(
      `SELECT DISTINCT split, step FROM trajectories WHERE run_id = ${this.ph(1)} AND group_id IS NULL AND step IS NOT NULL ORDER BY split, step`,
      [runId],
    );
    return rows.map((r) => ({ split: r.split, step: Number(r.step) }));
  }

  /** A page of a run's trajectories after `afterId`, with their ART JSON and group, by id. */
  async page(
    runId: number,
    filter: { split?: string | null; step?: number | null },
    afterId: number,
    limit: number,
  ): Promise<ExportRow[]> {
    const params: unknown[] = [runId, afterId];
    const where = [`t.run_id = ${this.ph(1)}`, `t.id > ${this.ph(2)}`];
    if (filter.split != null) {
      params.push(filter.split);
      where.push(`t.split = ${this.ph(params.length)}`);
    }
    if (filter.step != null) {
      params.push(filter.step);
      where.push(`t.step = ${this.ph(params.length)}`);
    }
    params.push(limit);
    const rows: Array<Record<string, unknown>> = await this.ds.query(
      `SELECT t.id, t.split, t.step, g.group_index, g.art AS group_art, a.art, t.messages, t.reward, t.metadata
       FROM trajectories t
       LEFT JOIN trajectory_art a ON a.trajectory_id = t.id
       LEFT JOIN trajectory_groups g ON g.id = t.group_id
       WHERE ${where.join(' AND ')} ORDER BY t.id LIMIT ${this.ph(params.length)}`,
      params,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      split: String(r.split),
      step: r.step == null ? null : Number(r.step),
      groupIndex: r.group_index == null ? null : Number(r.group_index),
      groupArt: (r.group_art as string | null) ?? null,
      art: (r.art as string | null) ?? null,
      messages: String(r.messages ?? '[]'),
      reward: r.reward == null ? null : Number(r.reward),
      metadata: (r.metadata as string | null) ?? null,
    }));
  }
}

/** Records what an import took of a file, inside the import's own transaction when it has one. */
export async function saveFileState(
  em: EntityManager,
  state: Pick<ArtImportFileRow, 'runId' | 'path' | 'size' | 'sha256' | 'consumed' | 'tail'>,
): Promise<void> {
  const repo = em.getRepository(ArtImportFileEntity);
  const old = await repo.findOneBy({ runId: state.runId, path: state.path });
  if (old) await repo.update({ id: old.id }, { ...state, importedAt: nowStored() });
  else await repo.insert({ ...state, importedAt: nowStored() });
}
