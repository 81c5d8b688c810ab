import { graphql } from '../gql';

// Mutation results are unions: the payload, or a type implementing `interface Error { message }`.
export const CreateTrackedRun = graphql(`
  mutation CreateTrackedRun($input: CreateTrainingRunInput!) {
    createTrainingRun(input: $input) {
      __typename
      ... on CreateTrainingRunPayload { run { id status projectName } }
      ... on ValidationError { issues { field rule message } }
      ... on Error { message }
    }
  }
`);

export const MoveRun = graphql(`
  mutation MoveRun($runId: ID!, $to: TrainingStatus!, $reason: String) {
    transitionRun(runId: $runId, to: $to, reason: $reason) {
      __typename
      ... on TransitionRunPayload { run { id status } }
      ... on Error { message }
    }
  }
`);

export const RunsPage = graphql(`
  query RunsPage($filter: TrainingRunFilter, $first: Int, $after: String) {
    runs(filter: $filter, first: $first, after: $after) {
      totalCount
      edges { cursor node { id status projectName } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const BestTrajectories = graphql(`
  query BestTrajectories($runId: ID!, $first: Int, $after: String) {
    run(id: $runId) {
      id
      trajectories(orderBy: { field: REWARD, direction: DESC }, first: $first, after: $after) {
        edges { cursor node { id reward } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const RunStatusChanged = graphql(`
  subscription RunStatusChanged($runId: ID, $afterEventId: String) {
    runStatusChanged(runId: $runId, afterEventId: $afterEventId) {
      eventId from to reason
      run { id status }
    }
  }
`);
