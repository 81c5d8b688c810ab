// Queries over datasets and their items.
import type { DataSource } from 'typeorm';

import { DatasetEntity, DatasetItemEntity, type DatasetItemRow, type DatasetRow } from '../db/entities';

export class DatasetsRepo {
  constructor(private readonly ds: DataSource) {}

  find(id: number): Promise<DatasetRow | null> {
    return this.ds.getRepository(DatasetEntity).findOneBy({ id });
  }

  /** The newest datasets first. */
  list(first: number): Promise<DatasetRow[]> {
    return this.ds.getRepository(DatasetEntity).find({ order: { createdAt: 'DESC', id: 'DESC' }, take: first });
  }

  items(datasetId: number): Promise<DatasetItemRow[]> {
    return this.ds.getRepository(DatasetItemEntity).find({ where: { datasetId }, order: { position: 'ASC' } });
  }
}
