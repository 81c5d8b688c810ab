// The operations the end-to-end tests send, typed by GraphQL Code Generator from schema.graphql.
import { graphql } from './gql';

export const RunFields = graphql(`
  fragment RunFields on TrainingRun {
    id
    databaseId
    uuid
    status
    modelName
    projectName
    trainedModelName
    taskDescription
    numExamples
    rolloutsPerGroup
    learningRate
    numEpochs
    maxSteps
    systemPrompt
    createdAt
    startedAt
    completedAt
    error
    config
    metrics { totalTrajectories avgReward minReward maxReward trainingLoss epoch step }
  }
`);

export const CreateRun = graphql(`
  mutation CreateRun($input: CreateTrainingRunInput!) {
    createTrainingRun(input: $input) {
      __typename
      ... on CreateTrainingRunPayload { run { ...RunFields } }
      ... on ValidationError { message issues { field rule message } }
      ... on ConflictError { message }
    }
  }
`);

export const TransitionRun = graphql(`
  mutation TransitionRun($runId: ID!, $to: TrainingStatus!, $reason: String) {
    transitionRun(runId: $runId, to: $to, reason: $reason) {
      __typename
      ... on TransitionRunPayload { run { ...RunFields statusHistory { eventId from to at reason } } }
      ... on IllegalTransitionError { message from to }
      ... on ValidationError { message issues { field rule message } }
      ... on NotFoundError { message }
      ... on RunModeError { message mode }
    }
  }
`);

export const DeleteRun = graphql(`
  mutation DeleteRun($id: ID!) {
    deleteTrainingRun(id: $id) {
      __typename
      ... on DeleteTrainingRunPayload { deletedRunId uuid }
      ... on Error { message }
    }
  }
`);

export const GetRun = graphql(`
  query GetRun($id: ID, $uuid: String) {
    run(id: $id, uuid: $uuid) {
      ...RunFields
      statusHistory { eventId from to at reason }
      taskInputs { step inputText context }
    }
  }
`);

export const GetNode = graphql(`
  query GetNode($id: ID!) {
    node(id: $id) {
      __typename
      id
      ... on TrainingRun { uuid status }
      ... on Trajectory { uuid reward run { id } }
    }
  }
`);

export const GetNodes = graphql(`
  query GetNodes($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename
      id
      ... on TrainingRun { uuid }
      ... on Trajectory { uuid }
    }
  }
`);

export const ListRuns = graphql(`
  query ListRuns($filter: TrainingRunFilter, $orderBy: TrainingRunOrder, $first: Int, $after: String, $last: Int, $before: String) {
    runs(filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { id databaseId status projectName modelName createdAt metrics { avgReward step } } }
    }
  }
`);

export const RecordTrajectories = graphql(`
  mutation RecordTrajectories($runId: ID!, $trajectories: [TrajectoryInput!]!) {
    recordTrajectories(runId: $runId, trajectories: $trajectories) {
      __typename
      ... on RecordTrajectoriesPayload { recorded duplicates duplicateUuids uuids }
      ... on ValidationError { message issues { field rule message } }
      ... on RunModeError { mode }
      ... on Error { message }
    }
  }
`);

export const ListTrajectories = graphql(`
  query ListTrajectories($runId: ID!, $filter: TrajectoryFilter, $orderBy: TrajectoryOrder, $first: Int, $after: String, $last: Int, $before: String) {
    trajectories(runId: $runId, filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { id databaseId uuid reward createdAt taskInput { step inputText context } messages { role content } metadata } }
    }
  }
`);

export const RunTrajectoriesWithRun = graphql(`
  query RunTrajectoriesWithRun($id: ID!, $first: Int) {
    run(id: $id) {
      id
      trajectories(first: $first) { totalCount edges { node { uuid run { id uuid } } } }
    }
  }
`);

export const RecordMetrics = graphql(`
  mutation RecordMetrics($runId: ID!, $points: [MetricPointInput!]!) {
    recordMetrics(runId: $runId, points: $points) {
      __typename
      ... on RecordMetricsPayload { points { step epoch totalTrajectories avgReward minReward maxReward rewardStd trainingLoss values { name value } } }
      ... on ValidationError { message issues { field rule message } }
      ... on RunModeError { mode }
      ... on Error { message }
    }
  }
`);

export const MetricHistory = graphql(`
  query MetricHistory($id: ID!, $maxPoints: Int) {
    run(id: $id) {
      metrics { totalTrajectories avgReward minReward maxReward trainingLoss epoch step }
      metricHistory(maxPoints: $maxPoints) {
        step epoch totalTrajectories avgReward minReward maxReward rewardStd trainingLoss recordedAt
        values { name value }
        bucket { firstStep lastStep count min { name value } max { name value } }
      }
    }
  }
`);

export const OnRunStatus = graphql(`
  subscription OnRunStatus($runId: ID, $projectName: String, $afterEventId: String) {
    runStatusChanged(runId: $runId, projectName: $projectName, afterEventId: $afterEventId) {
      eventId from to at reason statusAtEvent
      run { id status projectName startedAt completedAt error }
    }
  }
`);

export const OnMetrics = graphql(`
  subscription OnMetrics($runId: ID!) {
    metricsRecorded(runId: $runId) {
      points { step trainingLoss avgReward totalTrajectories }
      metrics { step avgReward totalTrajectories trainingLoss }
    }
  }
`);

export const OnTrajectories = graphql(`
  subscription OnTrajectories($runId: ID!) {
    trajectoriesRecorded(runId: $runId) { count step trajectories { uuid reward messages { role content } } }
  }
`);

export const OnTrajectoriesScored = graphql(`
  subscription OnTrajectoriesScored($runId: ID!) {
    trajectoriesScored(runId: $runId) { count step trajectories { uuid reward judgeExplanation independentReward taskInput { step } } }
  }
`);

export const OnTrajectoryCounts = graphql(`
  subscription OnTrajectoryCounts($runId: ID!) {
    trajectoriesRecorded(runId: $runId) { count step }
  }
`);

export const OnProgress = graphql(`
  subscription OnProgress($runId: ID!) {
    runProgress(runId: $runId) {
      step totalSteps epoch rolloutsDone rolloutsTotal judgeCallsDone judgeCallsTotal gradientStepsDone gradientStepsTotal at
      run { id status }
    }
  }
`);

export const CreatePipelineRun = graphql(`
  mutation CreatePipelineRun($input: CreateTrainingRunInput!) {
    createTrainingRun(input: $input) {
      __typename
      ... on CreateTrainingRunPayload { run { id databaseId uuid status mode config } }
      ... on MissingSettingError { message setting settings }
      ... on ValidationError { message issues { field rule message } }
      ... on Error { message }
    }
  }
`);

export const PipelineRunDetails = graphql(`
  query PipelineRunDetails($id: ID!) {
    run(id: $id) {
      id status error systemPrompt trainedModelName currentStep completedAt numExamples
      metrics { totalTrajectories avgReward step epoch trainingLoss }
      taskInputs { step inputText }
      currentBatch { step epoch epochStep items { inputText } }
      inputBatch(step: 4) { step epoch epochStep items { inputText } }
      statusHistory { from to at reason }
      metricHistory { step epoch totalTrajectories avgReward rewardStd minReward maxReward trainingLoss values { name value } }
      gradientSteps { step gradientStep loss values }
      trajectories(first: 0) { totalCount }
    }
  }
`);

export const StepTrajectories = graphql(`
  query StepTrajectories($runId: ID!, $step: Int, $first: Int, $after: String) {
    trajectories(runId: $runId, filter: { step: $step }, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { uuid reward independentReward judgeExplanation error droppedReason isTest metadata taskInput { step inputText } messages { role content } } }
    }
  }
`);

export const CancelRun = graphql(`
  mutation CancelRun($id: ID!) {
    cancelTrainingRun(id: $id) {
      __typename
      ... on CancelTrainingRunPayload { run { id status completedAt } }
      ... on Error { message }
    }
  }
`);

export const TestModel = graphql(`
  mutation TestModel($runId: ID!, $inputText: String!) {
    testTrainedModel(runId: $runId, inputText: $inputText) {
      __typename
      ... on TestTrainedModelPayload { reply trajectory { uuid isTest taskInput { step inputText } messages { role content } } }
      ... on Error { message }
    }
  }
`);

export const FleetRun = graphql(`
  query FleetRun($id: ID!) {
    run(id: $id) {
      id databaseId status error backend leaseOwner leaseExpiresAt queuePosition trainedModelName projectName
      statusHistory { eventId from to at }
      trajectories(first: 100) { totalCount edges { node { uuid } } }
    }
  }
`);

export const OnQueue = graphql(`
  subscription OnQueue($runId: ID!) {
    runQueuePosition(runId: $runId) { position run { id status } }
  }
`);

export const WhoAmI = graphql(`
  query WhoAmI {
    viewer { authenticated scope keyName openAccess }
  }
`);

export const ListApiKeys = graphql(`
  query ListApiKeys {
    apiKeys { id name scope createdAt lastUsedAt revokedAt }
  }
`);

export const CreateApiKey = graphql(`
  mutation CreateApiKey($name: String!, $scope: ApiKeyScope!) {
    createApiKey(name: $name, scope: $scope) {
      __typename
      ... on CreateApiKeyPayload { secret apiKey { id name scope createdAt lastUsedAt revokedAt } }
      ... on ValidationError { message issues { field rule message } }
      ... on Error { message }
    }
  }
`);

export const RevokeApiKey = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      __typename
      ... on RevokeApiKeyPayload { apiKey { id name revokedAt } }
      ... on Error { message }
    }
  }
`);

export const RecordTrajectoryGroups = graphql(`
  mutation RecordTrajectoryGroups(
    $runId: ID!
    $step: Int!
    $split: String
    $replace: Boolean
    $groups: [TrajectoryGroupInput!]!
  ) {
    recordTrajectoryGroups(runId: $runId, step: $step, split: $split, replace: $replace, groups: $groups) {
      __typename
      ... on RecordTrajectoryGroupsPayload { recorded duplicates replaced uuids }
      ... on ValidationError { message issues { field rule message } }
      ... on ConflictError { message }
      ... on RunModeError { message }
    }
  }
`);

export const RecordTrajectoryGroupsJson = graphql(`
  mutation RecordTrajectoryGroupsJson(
    $runId: ID!
    $step: Int!
    $split: String
    $replace: Boolean
    $groups: [TrajectoryGroupInput!]
    $groupsJson: String
  ) {
    recordTrajectoryGroups(
      runId: $runId
      step: $step
      split: $split
      replace: $replace
      groups: $groups
      groupsJson: $groupsJson
    ) {
      __typename
      ... on RecordTrajectoryGroupsPayload { recorded duplicates replaced uuids }
      ... on ValidationError { message issues { field rule message } }
      ... on ConflictError { message }
      ... on RunModeError { message }
    }
  }
`);

export const ArtTrajectories = graphql(`
  query ArtTrajectories($id: ID!, $split: String, $first: Int) {
    run(id: $id) {
      metrics { totalTrajectories avgReward step }
      trajectories(first: $first, filter: { split: $split }) {
        totalCount
        edges {
          node {
            uuid
            split
            step
            reward
            art
            tools
            metadata
            group { index step split metadata metrics logs exceptions }
            messages { role content toolCallId name trainable toolCalls { id type name arguments } }
            additionalHistories { messages { role content trainable } tools }
          }
        }
      }
    }
  }
`);

export const SplitHistory = graphql(`
  query SplitHistory($id: ID!, $split: String, $names: [String!]) {
    run(id: $id) {
      metricNames { split name }
      metricHistory(split: $split, names: $names) {
        split
        step
        totalTrajectories
        avgReward
        minReward
        maxReward
        rewardStd
        trainingLoss
        values { name value }
      }
    }
  }
`);

export const RecordSplitMetrics = graphql(`
  mutation RecordSplitMetrics($runId: ID!, $split: String, $points: [MetricPointInput!]!) {
    recordMetrics(runId: $runId, split: $split, points: $points) {
      __typename
      ... on RecordMetricsPayload { points { split step avgReward values { name value } } }
      ... on ValidationError { message issues { field rule message } }
      ... on ConflictError { message }
    }
  }
`);

export const RecordCheckpoint = graphql(`
  mutation RecordCheckpoint($runId: ID!, $step: Int!, $name: String!, $uri: String) {
    recordCheckpoint(runId: $runId, step: $step, name: $name, uri: $uri) {
      __typename
      ... on RecordCheckpointPayload { checkpoint { step name uri } }
      ... on ConflictError { message }
      ... on RunModeError { message }
      ... on ValidationError { message }
    }
  }
`);

export const Checkpoints = graphql(`
  query Checkpoints($id: ID!, $metric: String) {
    run(id: $id) {
      checkpoints { step name uri deletedAt metrics { name value } }
      bestCheckpoint(metric: $metric) { step value checkpoint { step name } }
    }
  }
`);

// A run's trajectories with their tool calls and ART JSON (the agentic rollout kinds).
export const AgenticTrajectories = graphql(`
  query AgenticTrajectories($runId: ID!) {
    trajectories(runId: $runId, first: 100) {
      totalCount
      edges {
        node {
          uuid reward error droppedReason judgeExplanation metadata tools art
          messages { role content toolCallId trainable toolCalls { id name arguments } }
        }
      }
    }
  }
`);

// Stalled TRACKED runs: the fields, and the events when one goes silent or comes back.
export const RunStall = graphql(`
  query RunStall($id: ID!) {
    run(id: $id) { id status stalled stalledSince lastActivityAt }
  }
`);

export const OnRunStall = graphql(`
  subscription OnRunStall($runId: ID, $projectName: String) {
    runStallChanged(runId: $runId, projectName: $projectName) {
      stalled stalledSince lastActivityAt at
      run { id databaseId stalled stalledSince }
    }
  }
`);

export const OnCheckpoint = graphql(`
  subscription OnCheckpoint($runId: ID!) { checkpointRecorded(runId: $runId) { step run { id } } }
`);
