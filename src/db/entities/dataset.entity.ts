// A named list of scenarios (the seed's TaskInput: input text and context) with a held-out val part.
import { EntitySchema } from 'typeorm';

export interface DatasetRow {
  id: number;
  uuid: string;
  name: string;
  trainCount: number;
  valCount: number;
  createdAt: string;
}

export interface DatasetItemRow {
  id: number;
  datasetId: number;
  position: number;
  /** `train` or `val`. */
  split: string;
  inputText: string;
  /** JSON object as text, or NULL. */
  context: string | null;
}

export const DatasetEntity = new EntitySchema<DatasetRow>({
  name: 'Dataset',
  tableName: 'datasets',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    uuid: { type: 'varchar', length: 36 },
    name: { type: 'varchar', length: 200 },
    trainCount: { name: 'train_count', type: 'integer' },
    valCount: { name: 'val_count', type: 'integer' },
    createdAt: { name: 'created_at', type: 'varchar', length: 32 },
  },
  indices: [
    { name: 'UQ_datasets_uuid', columns: ['uuid'], unique: true },
    { name: 'IDX_datasets_created', columns: ['createdAt', 'id'] },
  ],
});

export const DatasetItemEntity = new EntitySchema<DatasetItemRow>({
  name: 'DatasetItem',
  tableName: 'dataset_items',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    datasetId: { name: 'dataset_id', type: 'integer' },
    position: { type: 'integer' },
    split: { type: 'varchar', length: 64 },
    inputText: { name: 'input_text', type: 'text' },
    context: { type: 'text', nullable: true },
  },
  relations: {
    dataset: { type: 'many-to-one', target: 'Dataset', joinColumn: { name: 'dataset_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [{ name: 'UQ_dataset_items_dataset_position', columns: ['datasetId', 'position'], unique: true }],
});
