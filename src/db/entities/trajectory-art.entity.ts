// An ART trajectory's whole JSON (messages_and_choices with every choice and its logprobs, tools,
// additional_histories, metrics, logs, policy versions, any newer field), beside its row in
// `trajectories`: page reads never carry it; `Trajectory.art` and exports load it by id.
import { EntitySchema } from 'typeorm';

export interface TrajectoryArtRow {
  trajectoryId: number;
  art: string;
}

export const TrajectoryArtEntity = new EntitySchema<TrajectoryArtRow>({
  name: 'TrajectoryArt',
  tableName: 'trajectory_art',
  columns: {
    trajectoryId: { name: 'trajectory_id', type: 'integer', primary: true },
    art: { type: 'text' },
  },
  relations: {
    trajectory: {
      type: 'many-to-one',
      target: 'Trajectory',
      joinColumn: { name: 'trajectory_id' },
      onDelete: 'CASCADE',
    },
  } as never,
});
