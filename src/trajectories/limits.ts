/** At most this many trajectories per recording call (recordTrajectories, one log of groups, one step file). */
export const MAX_TRAJECTORIES_PER_CALL = 1000;
