// What an import has taken of each file of an ART model folder (src/imports/): its size and hash
// when last imported and, for history.jsonl, how many bytes of complete lines were read. A client
// asks for this (the import plan) and ships only what changed, from where the server stopped.
import { EntitySchema } from 'typeorm';

export interface ArtImportFileRow {
  id: number;
  runId: number;
  /** Relative to the model folder: history.jsonl, trajectories/train/0003.parquet, checkpoints/0003. */
  path: string;
  size: number;
  sha256: string;
  /** history.jsonl: bytes of complete lines imported (the next import starts there); others: size. */
  consumed: number;
  /**
   * history.jsonl: where its last imported line is, as `<offset>:<length>:<sha256>`, so a client
   * continuing at `consumed` first checks that its file still has that line there (the same file
   * grown, not another one under the same name).
   */
  tail: string | null;
  importedAt: string;
}

export const ArtImportFileEntity = new EntitySchema<ArtImportFileRow>({
  name: 'ArtImportFile',
  tableName: 'art_import_files',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    runId: { name: 'run_id', type: 'integer' },
    path: { type: 'varchar', length: 500 },
    size: { type: 'bigint', transformer: { from: (v: unknown) => Number(v), to: (v: number) => v } },
    sha256: { type: 'varchar', length: 64 },
    consumed: { type: 'bigint', transformer: { from: (v: unknown) => Number(v), to: (v: number) => v } },
    tail: { type: 'varchar', length: 100, nullable: true },
    importedAt: { name: 'imported_at', type: 'varchar', length: 32 },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [{ name: 'UQ_art_import_files_run_path', columns: ['runId', 'path'], unique: true }],
});
