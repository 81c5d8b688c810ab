// The connections whose edges are written from a cached plan (graphql/connection-plan.ts).
import { connectionPlans } from '../graphql/connection-plan';
import { runsListPlan } from '../runs/runs-list-plan';
import { trajectoriesPagePlan } from '../trajectories/page-plan';

export const plannedConnections = connectionPlans([trajectoriesPagePlan, runsListPlan]);
