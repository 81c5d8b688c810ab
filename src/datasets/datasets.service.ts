// Datasets: named lists of scenarios with a held-out val part, made once (createDataset) and trained
// on by any number of PIPELINE runs (`datasetId`), which copy the items into their own inputs.
import { randomUUID } from 'node:crypto';

import type { Database } from '../db/data-source';
import { DatasetEntity, DatasetItemEntity, type DatasetRow } from '../db/entities';
import { parseJsonObject } from '../db/json';
import { nowStored } from '../db/timestamps';
import { assignSplits, checkScenarios, type Scenario, type SplitsInput } from '../domain/scenarios';
import { NotFoundError } from '../errors';
import type { DatasetsRepo } from './datasets.repo';

export interface DatasetItemInput {
  inputText: string;
  context?: Record<string, unknown> | null;
  split?: string | null;
}

export class DatasetsService {
  constructor(
    private readonly db: Database,
    private readonly repo: DatasetsRepo,
  ) {}

  async get(id: number): Promise<DatasetRow> {
    const row = await this.repo.find(id);
    if (!row) throw new NotFoundError('Dataset', String(id));
    return row;
  }

  find(id: number): Promise<DatasetRow | null> {
    return this.repo.find(id);
  }

  list(first: number): Promise<DatasetRow[]> {
    return this.repo.list(first);
  }

  /** The dataset's items in order, each with its split. */
  async items(id: number): Promise<Scenario[]> {
    return (await this.repo.items(id)).map((r) => ({
      inputText: r.inputText,
      context: r.context ? parseJsonObject(r.context) : null,
      split: r.split === 'val' ? 'val' : 'train',
    }));
  }

  /** Checks the items (every problem at once), assigns their splits and stores them, all or nothing. */
  async create(name: string, input: DatasetItemInput[], splits?: SplitsInput | null): Promise<DatasetRow> {
    const given = input.map((i) => ({ inputText: i.inputText, context: i.context ?? null, split: i.split ?? null }));
    checkScenarios(given, 'items');
    const items = assignSplits(given, splits, { items: 'items', splits: 'splits' });
    return this.db.writes.run(async (tx) => {
      const row = {
        uuid: randomUUID(),
        name,
        trainCount: items.filter((i) => i.split === 'train').length,
        valCount: items.filter((i) => i.split === 'val').length,
        createdAt: nowStored(),
      };
      const { identifiers } = await tx.em.getRepository(DatasetEntity).insert(row);
      const datasetId = Number(identifiers[0].id);
      for (let i = 0; i < items.length; i += 200)
        await tx.em.getRepository(DatasetItemEntity).insert(
          items.slice(i, i + 200).map((item, j) => ({
            datasetId,
            position: i + j,
            split: item.split,
            inputText: item.inputText,
            context: item.context ? JSON.stringify(item.context) : null,
          })),
        );
      return { ...row, id: datasetId };
    });
  }
}
