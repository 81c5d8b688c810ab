/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  mutation CreateTrackedRun($input: CreateTrainingRunInput!) {\n    createTrainingRun(input: $input) {\n      __typename\n      ... on CreateTrainingRunPayload { run { id status projectName } }\n      ... on ValidationError { issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n": typeof types.CreateTrackedRunDocument,
    "\n  mutation MoveRun($runId: ID!, $to: TrainingStatus!, $reason: String) {\n    transitionRun(runId: $runId, to: $to, reason: $reason) {\n      __typename\n      ... on TransitionRunPayload { run { id status } }\n      ... on Error { message }\n    }\n  }\n": typeof types.MoveRunDocument,
    "\n  query RunsPage($filter: TrainingRunFilter, $first: Int, $after: String) {\n    runs(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges { cursor node { id status projectName } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.RunsPageDocument,
    "\n  query BestTrajectories($runId: ID!, $first: Int, $after: String) {\n    run(id: $runId) {\n      id\n      trajectories(orderBy: { field: REWARD, direction: DESC }, first: $first, after: $after) {\n        edges { cursor node { id reward } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.BestTrajectoriesDocument,
    "\n  subscription RunStatusChanged($runId: ID, $afterEventId: String) {\n    runStatusChanged(runId: $runId, afterEventId: $afterEventId) {\n      eventId from to reason\n      run { id status }\n    }\n  }\n": typeof types.RunStatusChangedDocument,
    "\n  mutation DashboardSearchRecordVal($runId: ID!, $points: [MetricPointInput!]!) {\n    recordMetrics(runId: $runId, split: \"val\", points: $points) {\n      __typename\n    }\n  }\n": typeof types.DashboardSearchRecordValDocument,
    "\n  query DashboardTestServerInfo { server { simulated version } }\n": typeof types.DashboardTestServerInfoDocument,
    "\n  query DashboardTestTotalSteps($id: ID!) { run(id: $id) { totalSteps numExamples numEpochs maxSteps } }\n": typeof types.DashboardTestTotalStepsDocument,
    "\n  query DemoRunCheck {\n    server { simulated }\n    runs(first: 5) { totalCount edges { node { id status projectName totalSteps statusHistory { to } metricHistory { step avgReward trainingLoss } trajectories(first: 1, orderBy: { field: REWARD, direction: DESC }) { totalCount edges { node { judgeExplanation } } } } } }\n  }\n": typeof types.DemoRunCheckDocument,
    "\n  fragment RunFields on TrainingRun {\n    id\n    databaseId\n    uuid\n    status\n    modelName\n    projectName\n    trainedModelName\n    taskDescription\n    numExamples\n    rolloutsPerGroup\n    learningRate\n    numEpochs\n    maxSteps\n    systemPrompt\n    createdAt\n    startedAt\n    completedAt\n    error\n    config\n    metrics { totalTrajectories avgReward minReward maxReward trainingLoss epoch step }\n  }\n": typeof types.RunFieldsFragmentDoc,
    "\n  mutation CreateRun($input: CreateTrainingRunInput!) {\n    createTrainingRun(input: $input) {\n      __typename\n      ... on CreateTrainingRunPayload { run { ...RunFields } }\n      ... on ValidationError { message issues { field rule message } }\n      ... on ConflictError { message }\n    }\n  }\n": typeof types.CreateRunDocument,
    "\n  mutation TransitionRun($runId: ID!, $to: TrainingStatus!, $reason: String) {\n    transitionRun(runId: $runId, to: $to, reason: $reason) {\n      __typename\n      ... on TransitionRunPayload { run { ...RunFields statusHistory { eventId from to at reason } } }\n      ... on IllegalTransitionError { message from to }\n      ... on ValidationError { message issues { field rule message } }\n      ... on NotFoundError { message }\n      ... on RunModeError { message mode }\n    }\n  }\n": typeof types.TransitionRunDocument,
    "\n  mutation DeleteRun($id: ID!) {\n    deleteTrainingRun(id: $id) {\n      __typename\n      ... on DeleteTrainingRunPayload { deletedRunId uuid }\n      ... on Error { message }\n    }\n  }\n": typeof types.DeleteRunDocument,
    "\n  query GetRun($id: ID, $uuid: String) {\n    run(id: $id, uuid: $uuid) {\n      ...RunFields\n      statusHistory { eventId from to at reason }\n      taskInputs { step inputText context }\n    }\n  }\n": typeof types.GetRunDocument,
    "\n  query GetNode($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on TrainingRun { uuid status }\n      ... on Trajectory { uuid reward run { id } }\n    }\n  }\n": typeof types.GetNodeDocument,
    "\n  query GetNodes($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      __typename\n      id\n      ... on TrainingRun { uuid }\n      ... on Trajectory { uuid }\n    }\n  }\n": typeof types.GetNodesDocument,
    "\n  query ListRuns($filter: TrainingRunFilter, $orderBy: TrainingRunOrder, $first: Int, $after: String, $last: Int, $before: String) {\n    runs(filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }\n      edges { cursor node { id databaseId status projectName modelName createdAt metrics { avgReward step } } }\n    }\n  }\n": typeof types.ListRunsDocument,
    "\n  mutation RecordTrajectories($runId: ID!, $trajectories: [TrajectoryInput!]!) {\n    recordTrajectories(runId: $runId, trajectories: $trajectories) {\n      __typename\n      ... on RecordTrajectoriesPayload { recorded duplicates duplicateUuids uuids }\n      ... on ValidationError { message issues { field rule message } }\n      ... on RunModeError { mode }\n      ... on Error { message }\n    }\n  }\n": typeof types.RecordTrajectoriesDocument,
    "\n  query ListTrajectories($runId: ID!, $filter: TrajectoryFilter, $orderBy: TrajectoryOrder, $first: Int, $after: String, $last: Int, $before: String) {\n    trajectories(runId: $runId, filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }\n      edges { cursor node { id databaseId uuid reward createdAt taskInput { step inputText context } messages { role content } metadata } }\n    }\n  }\n": typeof types.ListTrajectoriesDocument,
    "\n  query RunTrajectoriesWithRun($id: ID!, $first: Int) {\n    run(id: $id) {\n      id\n      trajectories(first: $first) { totalCount edges { node { uuid run { id uuid } } } }\n    }\n  }\n": typeof types.RunTrajectoriesWithRunDocument,
    "\n  mutation RecordMetrics($runId: ID!, $points: [MetricPointInput!]!) {\n    recordMetrics(runId: $runId, points: $points) {\n      __typename\n      ... on RecordMetricsPayload { points { step epoch totalTrajectories avgReward minReward maxReward rewardStd trainingLoss values { name value } } }\n      ... on ValidationError { message issues { field rule message } }\n      ... on RunModeError { mode }\n      ... on Error { message }\n    }\n  }\n": typeof types.RecordMetricsDocument,
    "\n  query MetricHistory($id: ID!, $maxPoints: Int) {\n    run(id: $id) {\n      metrics { totalTrajectories avgReward minReward maxReward trainingLoss epoch step }\n      metricHistory(maxPoints: $maxPoints) {\n        step epoch totalTrajectories avgReward minReward maxReward rewardStd trainingLoss recordedAt\n        values { name value }\n        bucket { firstStep lastStep count min { name value } max { name value } }\n      }\n    }\n  }\n": typeof types.MetricHistoryDocument,
    "\n  subscription OnRunStatus($runId: ID, $projectName: String, $afterEventId: String) {\n    runStatusChanged(runId: $runId, projectName: $projectName, afterEventId: $afterEventId) {\n      eventId from to at reason statusAtEvent\n      run { id status projectName startedAt completedAt error }\n    }\n  }\n": typeof types.OnRunStatusDocument,
    "\n  subscription OnMetrics($runId: ID!) {\n    metricsRecorded(runId: $runId) {\n      points { step trainingLoss avgReward totalTrajectories }\n      metrics { step avgReward totalTrajectories trainingLoss }\n    }\n  }\n": typeof types.OnMetricsDocument,
    "\n  subscription OnTrajectories($runId: ID!) {\n    trajectoriesRecorded(runId: $runId) { count step trajectories { uuid reward messages { role content } } }\n  }\n": typeof types.OnTrajectoriesDocument,
    "\n  subscription OnTrajectoriesScored($runId: ID!) {\n    trajectoriesScored(runId: $runId) { count step trajectories { uuid reward judgeExplanation independentReward taskInput { step } } }\n  }\n": typeof types.OnTrajectoriesScoredDocument,
    "\n  subscription OnTrajectoryCounts($runId: ID!) {\n    trajectoriesRecorded(runId: $runId) { count step }\n  }\n": typeof types.OnTrajectoryCountsDocument,
    "\n  subscription OnProgress($runId: ID!) {\n    runProgress(runId: $runId) {\n      step totalSteps epoch rolloutsDone rolloutsTotal judgeCallsDone judgeCallsTotal gradientStepsDone gradientStepsTotal at\n      run { id status }\n    }\n  }\n": typeof types.OnProgressDocument,
    "\n  mutation CreatePipelineRun($input: CreateTrainingRunInput!) {\n    createTrainingRun(input: $input) {\n      __typename\n      ... on CreateTrainingRunPayload { run { id databaseId uuid status mode config } }\n      ... on MissingSettingError { message setting settings }\n      ... on ValidationError { message issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n": typeof types.CreatePipelineRunDocument,
    "\n  query PipelineRunDetails($id: ID!) {\n    run(id: $id) {\n      id status error systemPrompt trainedModelName currentStep completedAt numExamples\n      metrics { totalTrajectories avgReward step epoch trainingLoss }\n      taskInputs { step inputText }\n      currentBatch { step epoch epochStep items { inputText } }\n      inputBatch(step: 4) { step epoch epochStep items { inputText } }\n      statusHistory { from to at reason }\n      metricHistory { step epoch totalTrajectories avgReward rewardStd minReward maxReward trainingLoss values { name value } }\n      gradientSteps { step gradientStep loss values }\n      trajectories(first: 0) { totalCount }\n    }\n  }\n": typeof types.PipelineRunDetailsDocument,
    "\n  query StepTrajectories($runId: ID!, $step: Int, $first: Int, $after: String) {\n    trajectories(runId: $runId, filter: { step: $step }, first: $first, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges { node { uuid reward independentReward judgeExplanation error droppedReason isTest metadata taskInput { step inputText } messages { role content } } }\n    }\n  }\n": typeof types.StepTrajectoriesDocument,
    "\n  mutation CancelRun($id: ID!) {\n    cancelTrainingRun(id: $id) {\n      __typename\n      ... on CancelTrainingRunPayload { run { id status completedAt } }\n      ... on Error { message }\n    }\n  }\n": typeof types.CancelRunDocument,
    "\n  mutation TestModel($runId: ID!, $inputText: String!) {\n    testTrainedModel(runId: $runId, inputText: $inputText) {\n      __typename\n      ... on TestTrainedModelPayload { reply trajectory { uuid isTest taskInput { step inputText } messages { role content } } }\n      ... on Error { message }\n    }\n  }\n": typeof types.TestModelDocument,
    "\n  query FleetRun($id: ID!) {\n    run(id: $id) {\n      id databaseId status error backend leaseOwner leaseExpiresAt queuePosition trainedModelName projectName\n      statusHistory { eventId from to at }\n      trajectories(first: 100) { totalCount edges { node { uuid } } }\n    }\n  }\n": typeof types.FleetRunDocument,
    "\n  subscription OnQueue($runId: ID!) {\n    runQueuePosition(runId: $runId) { position run { id status } }\n  }\n": typeof types.OnQueueDocument,
    "\n  query WhoAmI {\n    viewer { authenticated scope keyName openAccess }\n  }\n": typeof types.WhoAmIDocument,
    "\n  query ListApiKeys {\n    apiKeys { id name scope createdAt lastUsedAt revokedAt }\n  }\n": typeof types.ListApiKeysDocument,
    "\n  mutation CreateApiKey($name: String!, $scope: ApiKeyScope!) {\n    createApiKey(name: $name, scope: $scope) {\n      __typename\n      ... on CreateApiKeyPayload { secret apiKey { id name scope createdAt lastUsedAt revokedAt } }\n      ... on ValidationError { message issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n": typeof types.CreateApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      __typename\n      ... on RevokeApiKeyPayload { apiKey { id name revokedAt } }\n      ... on Error { message }\n    }\n  }\n": typeof types.RevokeApiKeyDocument,
    "\n  query RunCosts($id: ID!) {\n    run(id: $id) { status costs { name total steps } }\n  }\n": typeof types.RunCostsDocument,
    "\n  mutation SearchUpdateRun($id: ID!, $name: String, $notes: String, $tags: [String!], $group: String) {\n    updateRun(id: $id, name: $name, notes: $notes, tags: $tags, group: $group) {\n      __typename\n      ... on UpdateRunPayload { run { id name notes tags group } }\n      ... on ValidationError { issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n": typeof types.SearchUpdateRunDocument,
    "\n  query SearchRunIdentity($id: ID!) {\n    run(id: $id) { id name notes tags group trainedModelName }\n  }\n": typeof types.SearchRunIdentityDocument,
    "\n  mutation SearchRecordSplit($runId: ID!, $split: String!, $points: [MetricPointInput!]!) {\n    recordMetrics(runId: $runId, split: $split, points: $points) {\n      __typename\n      ... on Error { message }\n    }\n  }\n": typeof types.SearchRecordSplitDocument,
    "\n  query SearchSummary($id: ID!, $split: String) {\n    run(id: $id) { summary(split: $split) { split name last min max step } }\n  }\n": typeof types.SearchSummaryDocument,
    "\n  query SearchRuns($query: String, $first: Int, $after: String, $orderBy: TrainingRunOrder) {\n    runs(filter: { query: $query }, first: $first, after: $after, orderBy: $orderBy) {\n      totalCount\n      edges { node { id name } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.SearchRunsDocument,
};
const documents: Documents = {
    "\n  mutation CreateTrackedRun($input: CreateTrainingRunInput!) {\n    createTrainingRun(input: $input) {\n      __typename\n      ... on CreateTrainingRunPayload { run { id status projectName } }\n      ... on ValidationError { issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n": types.CreateTrackedRunDocument,
    "\n  mutation MoveRun($runId: ID!, $to: TrainingStatus!, $reason: String) {\n    transitionRun(runId: $runId, to: $to, reason: $reason) {\n      __typename\n      ... on TransitionRunPayload { run { id status } }\n      ... on Error { message }\n    }\n  }\n": types.MoveRunDocument,
    "\n  query RunsPage($filter: TrainingRunFilter, $first: Int, $after: String) {\n    runs(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges { cursor node { id status projectName } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.RunsPageDocument,
    "\n  query BestTrajectories($runId: ID!, $first: Int, $after: String) {\n    run(id: $runId) {\n      id\n      trajectories(orderBy: { field: REWARD, direction: DESC }, first: $first, after: $after) {\n        edges { cursor node { id reward } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.BestTrajectoriesDocument,
    "\n  subscription RunStatusChanged($runId: ID, $afterEventId: String) {\n    runStatusChanged(runId: $runId, afterEventId: $afterEventId) {\n      eventId from to reason\n      run { id status }\n    }\n  }\n": types.RunStatusChangedDocument,
    "\n  mutation DashboardSearchRecordVal($runId: ID!, $points: [MetricPointInput!]!) {\n    recordMetrics(runId: $runId, split: \"val\", points: $points) {\n      __typename\n    }\n  }\n": types.DashboardSearchRecordValDocument,
    "\n  query DashboardTestServerInfo { server { simulated version } }\n": types.DashboardTestServerInfoDocument,
    "\n  query DashboardTestTotalSteps($id: ID!) { run(id: $id) { totalSteps numExamples numEpochs maxSteps } }\n": types.DashboardTestTotalStepsDocument,
    "\n  query DemoRunCheck {\n    server { simulated }\n    runs(first: 5) { totalCount edges { node { id status projectName totalSteps statusHistory { to } metricHistory { step avgReward trainingLoss } trajectories(first: 1, orderBy: { field: REWARD, direction: DESC }) { totalCount edges { node { judgeExplanation } } } } } }\n  }\n": types.DemoRunCheckDocument,
    "\n  fragment RunFields on TrainingRun {\n    id\n    databaseId\n    uuid\n    status\n    modelName\n    projectName\n    trainedModelName\n    taskDescription\n    numExamples\n    rolloutsPerGroup\n    learningRate\n    numEpochs\n    maxSteps\n    systemPrompt\n    createdAt\n    startedAt\n    completedAt\n    error\n    config\n    metrics { totalTrajectories avgReward minReward maxReward trainingLoss epoch step }\n  }\n": types.RunFieldsFragmentDoc,
    "\n  mutation CreateRun($input: CreateTrainingRunInput!) {\n    createTrainingRun(input: $input) {\n      __typename\n      ... on CreateTrainingRunPayload { run { ...RunFields } }\n      ... on ValidationError { message issues { field rule message } }\n      ... on ConflictError { message }\n    }\n  }\n": types.CreateRunDocument,
    "\n  mutation TransitionRun($runId: ID!, $to: TrainingStatus!, $reason: String) {\n    transitionRun(runId: $runId, to: $to, reason: $reason) {\n      __typename\n      ... on TransitionRunPayload { run { ...RunFields statusHistory { eventId from to at reason } } }\n      ... on IllegalTransitionError { message from to }\n      ... on ValidationError { message issues { field rule message } }\n      ... on NotFoundError { message }\n      ... on RunModeError { message mode }\n    }\n  }\n": types.TransitionRunDocument,
    "\n  mutation DeleteRun($id: ID!) {\n    deleteTrainingRun(id: $id) {\n      __typename\n      ... on DeleteTrainingRunPayload { deletedRunId uuid }\n      ... on Error { message }\n    }\n  }\n": types.DeleteRunDocument,
    "\n  query GetRun($id: ID, $uuid: String) {\n    run(id: $id, uuid: $uuid) {\n      ...RunFields\n      statusHistory { eventId from to at reason }\n      taskInputs { step inputText context }\n    }\n  }\n": types.GetRunDocument,
    "\n  query GetNode($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on TrainingRun { uuid status }\n      ... on Trajectory { uuid reward run { id } }\n    }\n  }\n": types.GetNodeDocument,
    "\n  query GetNodes($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      __typename\n      id\n      ... on TrainingRun { uuid }\n      ... on Trajectory { uuid }\n    }\n  }\n": types.GetNodesDocument,
    "\n  query ListRuns($filter: TrainingRunFilter, $orderBy: TrainingRunOrder, $first: Int, $after: String, $last: Int, $before: String) {\n    runs(filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }\n      edges { cursor node { id databaseId status projectName modelName createdAt metrics { avgReward step } } }\n    }\n  }\n": types.ListRunsDocument,
    "\n  mutation RecordTrajectories($runId: ID!, $trajectories: [TrajectoryInput!]!) {\n    recordTrajectories(runId: $runId, trajectories: $trajectories) {\n      __typename\n      ... on RecordTrajectoriesPayload { recorded duplicates duplicateUuids uuids }\n      ... on ValidationError { message issues { field rule message } }\n      ... on RunModeError { mode }\n      ... on Error { message }\n    }\n  }\n": types.RecordTrajectoriesDocument,
    "\n  query ListTrajectories($runId: ID!, $filter: TrajectoryFilter, $orderBy: TrajectoryOrder, $first: Int, $after: String, $last: Int, $before: String) {\n    trajectories(runId: $runId, filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }\n      edges { cursor node { id databaseId uuid reward createdAt taskInput { step inputText context } messages { role content } metadata } }\n    }\n  }\n": types.ListTrajectoriesDocument,
    "\n  query RunTrajectoriesWithRun($id: ID!, $first: Int) {\n    run(id: $id) {\n      id\n      trajectories(first: $first) { totalCount edges { node { uuid run { id uuid } } } }\n    }\n  }\n": types.RunTrajectoriesWithRunDocument,
    "\n  mutation RecordMetrics($runId: ID!, $points: [MetricPointInput!]!) {\n    recordMetrics(runId: $runId, points: $points) {\n      __typename\n      ... on RecordMetricsPayload { points { step epoch totalTrajectories avgReward minReward maxReward rewardStd trainingLoss values { name value } } }\n      ... on ValidationError { message issues { field rule message } }\n      ... on RunModeError { mode }\n      ... on Error { message }\n    }\n  }\n": types.RecordMetricsDocument,
    "\n  query MetricHistory($id: ID!, $maxPoints: Int) {\n    run(id: $id) {\n      metrics { totalTrajectories avgReward minReward maxReward trainingLoss epoch step }\n      metricHistory(maxPoints: $maxPoints) {\n        step epoch totalTrajectories avgReward minReward maxReward rewardStd trainingLoss recordedAt\n        values { name value }\n        bucket { firstStep lastStep count min { name value } max { name value } }\n      }\n    }\n  }\n": types.MetricHistoryDocument,
    "\n  subscription OnRunStatus($runId: ID, $projectName: String, $afterEventId: String) {\n    runStatusChanged(runId: $runId, projectName: $projectName, afterEventId: $afterEventId) {\n      eventId from to at reason statusAtEvent\n      run { id status projectName startedAt completedAt error }\n    }\n  }\n": types.OnRunStatusDocument,
    "\n  subscription OnMetrics($runId: ID!) {\n    metricsRecorded(runId: $runId) {\n      points { step trainingLoss avgReward totalTrajectories }\n      metrics { step avgReward totalTrajectories trainingLoss }\n    }\n  }\n": types.OnMetricsDocument,
    "\n  subscription OnTrajectories($runId: ID!) {\n    trajectoriesRecorded(runId: $runId) { count step trajectories { uuid reward messages { role content } } }\n  }\n": types.OnTrajectoriesDocument,
    "\n  subscription OnTrajectoriesScored($runId: ID!) {\n    trajectoriesScored(runId: $runId) { count step trajectories { uuid reward judgeExplanation independentReward taskInput { step } } }\n  }\n": types.OnTrajectoriesScoredDocument,
    "\n  subscription OnTrajectoryCounts($runId: ID!) {\n    trajectoriesRecorded(runId: $runId) { count step }\n  }\n": types.OnTrajectoryCountsDocument,
    "\n  subscription OnProgress($runId: ID!) {\n    runProgress(runId: $runId) {\n      step totalSteps epoch rolloutsDone rolloutsTotal judgeCallsDone judgeCallsTotal gradientStepsDone gradientStepsTotal at\n      run { id status }\n    }\n  }\n": types.OnProgressDocument,
    "\n  mutation CreatePipelineRun($input: CreateTrainingRunInput!) {\n    createTrainingRun(input: $input) {\n      __typename\n      ... on CreateTrainingRunPayload { run { id databaseId uuid status mode config } }\n      ... on MissingSettingError { message setting settings }\n      ... on ValidationError { message issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n": types.CreatePipelineRunDocument,
    "\n  query PipelineRunDetails($id: ID!) {\n    run(id: $id) {\n      id status error systemPrompt trainedModelName currentStep completedAt numExamples\n      metrics { totalTrajectories avgReward step epoch trainingLoss }\n      taskInputs { step inputText }\n      currentBatch { step epoch epochStep items { inputText } }\n      inputBatch(step: 4) { step epoch epochStep items { inputText } }\n      statusHistory { from to at reason }\n      metricHistory { step epoch totalTrajectories avgReward rewardStd minReward maxReward trainingLoss values { name value } }\n      gradientSteps { step gradientStep loss values }\n      trajectories(first: 0) { totalCount }\n    }\n  }\n": types.PipelineRunDetailsDocument,
    "\n  query StepTrajectories($runId: ID!, $step: Int, $first: Int, $after: String) {\n    trajectories(runId: $runId, filter: { step: $step }, first: $first, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges { node { uuid reward independentReward judgeExplanation error droppedReason isTest metadata taskInput { step inputText } messages { role content } } }\n    }\n  }\n": types.StepTrajectoriesDocument,
    "\n  mutation CancelRun($id: ID!) {\n    cancelTrainingRun(id: $id) {\n      __typename\n      ... on CancelTrainingRunPayload { run { id status completedAt } }\n      ... on Error { message }\n    }\n  }\n": types.CancelRunDocument,
    "\n  mutation TestModel($runId: ID!, $inputText: String!) {\n    testTrainedModel(runId: $runId, inputText: $inputText) {\n      __typename\n      ... on TestTrainedModelPayload { reply trajectory { uuid isTest taskInput { step inputText } messages { role content } } }\n      ... on Error { message }\n    }\n  }\n": types.TestModelDocument,
    "\n  query FleetRun($id: ID!) {\n    run(id: $id) {\n      id databaseId status error backend leaseOwner leaseExpiresAt queuePosition trainedModelName projectName\n      statusHistory { eventId from to at }\n      trajectories(first: 100) { totalCount edges { node { uuid } } }\n    }\n  }\n": types.FleetRunDocument,
    "\n  subscription OnQueue($runId: ID!) {\n    runQueuePosition(runId: $runId) { position run { id status } }\n  }\n": types.OnQueueDocument,
    "\n  query WhoAmI {\n    viewer { authenticated scope keyName openAccess }\n  }\n": types.WhoAmIDocument,
    "\n  query ListApiKeys {\n    apiKeys { id name scope createdAt lastUsedAt revokedAt }\n  }\n": types.ListApiKeysDocument,
    "\n  mutation CreateApiKey($name: String!, $scope: ApiKeyScope!) {\n    createApiKey(name: $name, scope: $scope) {\n      __typename\n      ... on CreateApiKeyPayload { secret apiKey { id name scope createdAt lastUsedAt revokedAt } }\n      ... on ValidationError { message issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n": types.CreateApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      __typename\n      ... on RevokeApiKeyPayload { apiKey { id name revokedAt } }\n      ... on Error { message }\n    }\n  }\n": types.RevokeApiKeyDocument,
    "\n  query RunCosts($id: ID!) {\n    run(id: $id) { status costs { name total steps } }\n  }\n": types.RunCostsDocument,
    "\n  mutation SearchUpdateRun($id: ID!, $name: String, $notes: String, $tags: [String!], $group: String) {\n    updateRun(id: $id, name: $name, notes: $notes, tags: $tags, group: $group) {\n      __typename\n      ... on UpdateRunPayload { run { id name notes tags group } }\n      ... on ValidationError { issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n": types.SearchUpdateRunDocument,
    "\n  query SearchRunIdentity($id: ID!) {\n    run(id: $id) { id name notes tags group trainedModelName }\n  }\n": types.SearchRunIdentityDocument,
    "\n  mutation SearchRecordSplit($runId: ID!, $split: String!, $points: [MetricPointInput!]!) {\n    recordMetrics(runId: $runId, split: $split, points: $points) {\n      __typename\n      ... on Error { message }\n    }\n  }\n": types.SearchRecordSplitDocument,
    "\n  query SearchSummary($id: ID!, $split: String) {\n    run(id: $id) { summary(split: $split) { split name last min max step } }\n  }\n": types.SearchSummaryDocument,
    "\n  query SearchRuns($query: String, $first: Int, $after: String, $orderBy: TrainingRunOrder) {\n    runs(filter: { query: $query }, first: $first, after: $after, orderBy: $orderBy) {\n      totalCount\n      edges { node { id name } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.SearchRunsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateTrackedRun($input: CreateTrainingRunInput!) {\n    createTrainingRun(input: $input) {\n      __typename\n      ... on CreateTrainingRunPayload { run { id status projectName } }\n      ... on ValidationError { issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateTrackedRun($input: CreateTrainingRunInput!) {\n    createTrainingRun(input: $input) {\n      __typename\n      ... on CreateTrainingRunPayload { run { id status projectName } }\n      ... on ValidationError { issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MoveRun($runId: ID!, $to: TrainingStatus!, $reason: String) {\n    transitionRun(runId: $runId, to: $to, reason: $reason) {\n      __typename\n      ... on TransitionRunPayload { run { id status } }\n      ... on Error { message }\n    }\n  }\n"): (typeof documents)["\n  mutation MoveRun($runId: ID!, $to: TrainingStatus!, $reason: String) {\n    transitionRun(runId: $runId, to: $to, reason: $reason) {\n      __typename\n      ... on TransitionRunPayload { run { id status } }\n      ... on Error { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RunsPage($filter: TrainingRunFilter, $first: Int, $after: String) {\n    runs(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges { cursor node { id status projectName } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query RunsPage($filter: TrainingRunFilter, $first: Int, $after: String) {\n    runs(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges { cursor node { id status projectName } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BestTrajectories($runId: ID!, $first: Int, $after: String) {\n    run(id: $runId) {\n      id\n      trajectories(orderBy: { field: REWARD, direction: DESC }, first: $first, after: $after) {\n        edges { cursor node { id reward } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query BestTrajectories($runId: ID!, $first: Int, $after: String) {\n    run(id: $runId) {\n      id\n      trajectories(orderBy: { field: REWARD, direction: DESC }, first: $first, after: $after) {\n        edges { cursor node { id reward } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RunStatusChanged($runId: ID, $afterEventId: String) {\n    runStatusChanged(runId: $runId, afterEventId: $afterEventId) {\n      eventId from to reason\n      run { id status }\n    }\n  }\n"): (typeof documents)["\n  subscription RunStatusChanged($runId: ID, $afterEventId: String) {\n    runStatusChanged(runId: $runId, afterEventId: $afterEventId) {\n      eventId from to reason\n      run { id status }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSearchRecordVal($runId: ID!, $points: [MetricPointInput!]!) {\n    recordMetrics(runId: $runId, split: \"val\", points: $points) {\n      __typename\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardSearchRecordVal($runId: ID!, $points: [MetricPointInput!]!) {\n    recordMetrics(runId: $runId, split: \"val\", points: $points) {\n      __typename\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardTestServerInfo { server { simulated version } }\n"): (typeof documents)["\n  query DashboardTestServerInfo { server { simulated version } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardTestTotalSteps($id: ID!) { run(id: $id) { totalSteps numExamples numEpochs maxSteps } }\n"): (typeof documents)["\n  query DashboardTestTotalSteps($id: ID!) { run(id: $id) { totalSteps numExamples numEpochs maxSteps } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DemoRunCheck {\n    server { simulated }\n    runs(first: 5) { totalCount edges { node { id status projectName totalSteps statusHistory { to } metricHistory { step avgReward trainingLoss } trajectories(first: 1, orderBy: { field: REWARD, direction: DESC }) { totalCount edges { node { judgeExplanation } } } } } }\n  }\n"): (typeof documents)["\n  query DemoRunCheck {\n    server { simulated }\n    runs(first: 5) { totalCount edges { node { id status projectName totalSteps statusHistory { to } metricHistory { step avgReward trainingLoss } trajectories(first: 1, orderBy: { field: REWARD, direction: DESC }) { totalCount edges { node { judgeExplanation } } } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RunFields on TrainingRun {\n    id\n    databaseId\n    uuid\n    status\n    modelName\n    projectName\n    trainedModelName\n    taskDescription\n    numExamples\n    rolloutsPerGroup\n    learningRate\n    numEpochs\n    maxSteps\n    systemPrompt\n    createdAt\n    startedAt\n    completedAt\n    error\n    config\n    metrics { totalTrajectories avgReward minReward maxReward trainingLoss epoch step }\n  }\n"): (typeof documents)["\n  fragment RunFields on TrainingRun {\n    id\n    databaseId\n    uuid\n    status\n    modelName\n    projectName\n    trainedModelName\n    taskDescription\n    numExamples\n    rolloutsPerGroup\n    learningRate\n    numEpochs\n    maxSteps\n    systemPrompt\n    createdAt\n    startedAt\n    completedAt\n    error\n    config\n    metrics { totalTrajectories avgReward minReward maxReward trainingLoss epoch step }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateRun($input: CreateTrainingRunInput!) {\n    createTrainingRun(input: $input) {\n      __typename\n      ... on CreateTrainingRunPayload { run { ...RunFields } }\n      ... on ValidationError { message issues { field rule message } }\n      ... on ConflictError { message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateRun($input: CreateTrainingRunInput!) {\n    createTrainingRun(input: $input) {\n      __typename\n      ... on CreateTrainingRunPayload { run { ...RunFields } }\n      ... on ValidationError { message issues { field rule message } }\n      ... on ConflictError { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TransitionRun($runId: ID!, $to: TrainingStatus!, $reason: String) {\n    transitionRun(runId: $runId, to: $to, reason: $reason) {\n      __typename\n      ... on TransitionRunPayload { run { ...RunFields statusHistory { eventId from to at reason } } }\n      ... on IllegalTransitionError { message from to }\n      ... on ValidationError { message issues { field rule message } }\n      ... on NotFoundError { message }\n      ... on RunModeError { message mode }\n    }\n  }\n"): (typeof documents)["\n  mutation TransitionRun($runId: ID!, $to: TrainingStatus!, $reason: String) {\n    transitionRun(runId: $runId, to: $to, reason: $reason) {\n      __typename\n      ... on TransitionRunPayload { run { ...RunFields statusHistory { eventId from to at reason } } }\n      ... on IllegalTransitionError { message from to }\n      ... on ValidationError { message issues { field rule message } }\n      ... on NotFoundError { message }\n      ... on RunModeError { message mode }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteRun($id: ID!) {\n    deleteTrainingRun(id: $id) {\n      __typename\n      ... on DeleteTrainingRunPayload { deletedRunId uuid }\n      ... on Error { message }\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteRun($id: ID!) {\n    deleteTrainingRun(id: $id) {\n      __typename\n      ... on DeleteTrainingRunPayload { deletedRunId uuid }\n      ... on Error { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GetRun($id: ID, $uuid: String) {\n    run(id: $id, uuid: $uuid) {\n      ...RunFields\n      statusHistory { eventId from to at reason }\n      taskInputs { step inputText context }\n    }\n  }\n"): (typeof documents)["\n  query GetRun($id: ID, $uuid: String) {\n    run(id: $id, uuid: $uuid) {\n      ...RunFields\n      statusHistory { eventId from to at reason }\n      taskInputs { step inputText context }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GetNode($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on TrainingRun { uuid status }\n      ... on Trajectory { uuid reward run { id } }\n    }\n  }\n"): (typeof documents)["\n  query GetNode($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on TrainingRun { uuid status }\n      ... on Trajectory { uuid reward run { id } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GetNodes($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      __typename\n      id\n      ... on TrainingRun { uuid }\n      ... on Trajectory { uuid }\n    }\n  }\n"): (typeof documents)["\n  query GetNodes($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      __typename\n      id\n      ... on TrainingRun { uuid }\n      ... on Trajectory { uuid }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListRuns($filter: TrainingRunFilter, $orderBy: TrainingRunOrder, $first: Int, $after: String, $last: Int, $before: String) {\n    runs(filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }\n      edges { cursor node { id databaseId status projectName modelName createdAt metrics { avgReward step } } }\n    }\n  }\n"): (typeof documents)["\n  query ListRuns($filter: TrainingRunFilter, $orderBy: TrainingRunOrder, $first: Int, $after: String, $last: Int, $before: String) {\n    runs(filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }\n      edges { cursor node { id databaseId status projectName modelName createdAt metrics { avgReward step } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RecordTrajectories($runId: ID!, $trajectories: [TrajectoryInput!]!) {\n    recordTrajectories(runId: $runId, trajectories: $trajectories) {\n      __typename\n      ... on RecordTrajectoriesPayload { recorded duplicates duplicateUuids uuids }\n      ... on ValidationError { message issues { field rule message } }\n      ... on RunModeError { mode }\n      ... on Error { message }\n    }\n  }\n"): (typeof documents)["\n  mutation RecordTrajectories($runId: ID!, $trajectories: [TrajectoryInput!]!) {\n    recordTrajectories(runId: $runId, trajectories: $trajectories) {\n      __typename\n      ... on RecordTrajectoriesPayload { recorded duplicates duplicateUuids uuids }\n      ... on ValidationError { message issues { field rule message } }\n      ... on RunModeError { mode }\n      ... on Error { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListTrajectories($runId: ID!, $filter: TrajectoryFilter, $orderBy: TrajectoryOrder, $first: Int, $after: String, $last: Int, $before: String) {\n    trajectories(runId: $runId, filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }\n      edges { cursor node { id databaseId uuid reward createdAt taskInput { step inputText context } messages { role content } metadata } }\n    }\n  }\n"): (typeof documents)["\n  query ListTrajectories($runId: ID!, $filter: TrajectoryFilter, $orderBy: TrajectoryOrder, $first: Int, $after: String, $last: Int, $before: String) {\n    trajectories(runId: $runId, filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }\n      edges { cursor node { id databaseId uuid reward createdAt taskInput { step inputText context } messages { role content } metadata } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RunTrajectoriesWithRun($id: ID!, $first: Int) {\n    run(id: $id) {\n      id\n      trajectories(first: $first) { totalCount edges { node { uuid run { id uuid } } } }\n    }\n  }\n"): (typeof documents)["\n  query RunTrajectoriesWithRun($id: ID!, $first: Int) {\n    run(id: $id) {\n      id\n      trajectories(first: $first) { totalCount edges { node { uuid run { id uuid } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RecordMetrics($runId: ID!, $points: [MetricPointInput!]!) {\n    recordMetrics(runId: $runId, points: $points) {\n      __typename\n      ... on RecordMetricsPayload { points { step epoch totalTrajectories avgReward minReward maxReward rewardStd trainingLoss values { name value } } }\n      ... on ValidationError { message issues { field rule message } }\n      ... on RunModeError { mode }\n      ... on Error { message }\n    }\n  }\n"): (typeof documents)["\n  mutation RecordMetrics($runId: ID!, $points: [MetricPointInput!]!) {\n    recordMetrics(runId: $runId, points: $points) {\n      __typename\n      ... on RecordMetricsPayload { points { step epoch totalTrajectories avgReward minReward maxReward rewardStd trainingLoss values { name value } } }\n      ... on ValidationError { message issues { field rule message } }\n      ... on RunModeError { mode }\n      ... on Error { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MetricHistory($id: ID!, $maxPoints: Int) {\n    run(id: $id) {\n      metrics { totalTrajectories avgReward minReward maxReward trainingLoss epoch step }\n      metricHistory(maxPoints: $maxPoints) {\n        step epoch totalTrajectories avgReward minReward maxReward rewardStd trainingLoss recordedAt\n        values { name value }\n        bucket { firstStep lastStep count min { name value } max { name value } }\n      }\n    }\n  }\n"): (typeof documents)["\n  query MetricHistory($id: ID!, $maxPoints: Int) {\n    run(id: $id) {\n      metrics { totalTrajectories avgReward minReward maxReward trainingLoss epoch step }\n      metricHistory(maxPoints: $maxPoints) {\n        step epoch totalTrajectories avgReward minReward maxReward rewardStd trainingLoss recordedAt\n        values { name value }\n        bucket { firstStep lastStep count min { name value } max { name value } }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnRunStatus($runId: ID, $projectName: String, $afterEventId: String) {\n    runStatusChanged(runId: $runId, projectName: $projectName, afterEventId: $afterEventId) {\n      eventId from to at reason statusAtEvent\n      run { id status projectName startedAt completedAt error }\n    }\n  }\n"): (typeof documents)["\n  subscription OnRunStatus($runId: ID, $projectName: String, $afterEventId: String) {\n    runStatusChanged(runId: $runId, projectName: $projectName, afterEventId: $afterEventId) {\n      eventId from to at reason statusAtEvent\n      run { id status projectName startedAt completedAt error }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnMetrics($runId: ID!) {\n    metricsRecorded(runId: $runId) {\n      points { step trainingLoss avgReward totalTrajectories }\n      metrics { step avgReward totalTrajectories trainingLoss }\n    }\n  }\n"): (typeof documents)["\n  subscription OnMetrics($runId: ID!) {\n    metricsRecorded(runId: $runId) {\n      points { step trainingLoss avgReward totalTrajectories }\n      metrics { step avgReward totalTrajectories trainingLoss }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnTrajectories($runId: ID!) {\n    trajectoriesRecorded(runId: $runId) { count step trajectories { uuid reward messages { role content } } }\n  }\n"): (typeof documents)["\n  subscription OnTrajectories($runId: ID!) {\n    trajectoriesRecorded(runId: $runId) { count step trajectories { uuid reward messages { role content } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnTrajectoriesScored($runId: ID!) {\n    trajectoriesScored(runId: $runId) { count step trajectories { uuid reward judgeExplanation independentReward taskInput { step } } }\n  }\n"): (typeof documents)["\n  subscription OnTrajectoriesScored($runId: ID!) {\n    trajectoriesScored(runId: $runId) { count step trajectories { uuid reward judgeExplanation independentReward taskInput { step } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnTrajectoryCounts($runId: ID!) {\n    trajectoriesRecorded(runId: $runId) { count step }\n  }\n"): (typeof documents)["\n  subscription OnTrajectoryCounts($runId: ID!) {\n    trajectoriesRecorded(runId: $runId) { count step }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnProgress($runId: ID!) {\n    runProgress(runId: $runId) {\n      step totalSteps epoch rolloutsDone rolloutsTotal judgeCallsDone judgeCallsTotal gradientStepsDone gradientStepsTotal at\n      run { id status }\n    }\n  }\n"): (typeof documents)["\n  subscription OnProgress($runId: ID!) {\n    runProgress(runId: $runId) {\n      step totalSteps epoch rolloutsDone rolloutsTotal judgeCallsDone judgeCallsTotal gradientStepsDone gradientStepsTotal at\n      run { id status }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreatePipelineRun($input: CreateTrainingRunInput!) {\n    createTrainingRun(input: $input) {\n      __typename\n      ... on CreateTrainingRunPayload { run { id databaseId uuid status mode config } }\n      ... on MissingSettingError { message setting settings }\n      ... on ValidationError { message issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreatePipelineRun($input: CreateTrainingRunInput!) {\n    createTrainingRun(input: $input) {\n      __typename\n      ... on CreateTrainingRunPayload { run { id databaseId uuid status mode config } }\n      ... on MissingSettingError { message setting settings }\n      ... on ValidationError { message issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PipelineRunDetails($id: ID!) {\n    run(id: $id) {\n      id status error systemPrompt trainedModelName currentStep completedAt numExamples\n      metrics { totalTrajectories avgReward step epoch trainingLoss }\n      taskInputs { step inputText }\n      currentBatch { step epoch epochStep items { inputText } }\n      inputBatch(step: 4) { step epoch epochStep items { inputText } }\n      statusHistory { from to at reason }\n      metricHistory { step epoch totalTrajectories avgReward rewardStd minReward maxReward trainingLoss values { name value } }\n      gradientSteps { step gradientStep loss values }\n      trajectories(first: 0) { totalCount }\n    }\n  }\n"): (typeof documents)["\n  query PipelineRunDetails($id: ID!) {\n    run(id: $id) {\n      id status error systemPrompt trainedModelName currentStep completedAt numExamples\n      metrics { totalTrajectories avgReward step epoch trainingLoss }\n      taskInputs { step inputText }\n      currentBatch { step epoch epochStep items { inputText } }\n      inputBatch(step: 4) { step epoch epochStep items { inputText } }\n      statusHistory { from to at reason }\n      metricHistory { step epoch totalTrajectories avgReward rewardStd minReward maxReward trainingLoss values { name value } }\n      gradientSteps { step gradientStep loss values }\n      trajectories(first: 0) { totalCount }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query StepTrajectories($runId: ID!, $step: Int, $first: Int, $after: String) {\n    trajectories(runId: $runId, filter: { step: $step }, first: $first, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges { node { uuid reward independentReward judgeExplanation error droppedReason isTest metadata taskInput { step inputText } messages { role content } } }\n    }\n  }\n"): (typeof documents)["\n  query StepTrajectories($runId: ID!, $step: Int, $first: Int, $after: String) {\n    trajectories(runId: $runId, filter: { step: $step }, first: $first, after: $after) {\n      totalCount\n      pageInfo { hasNextPage endCursor }\n      edges { node { uuid reward independentReward judgeExplanation error droppedReason isTest metadata taskInput { step inputText } messages { role content } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelRun($id: ID!) {\n    cancelTrainingRun(id: $id) {\n      __typename\n      ... on CancelTrainingRunPayload { run { id status completedAt } }\n      ... on Error { message }\n    }\n  }\n"): (typeof documents)["\n  mutation CancelRun($id: ID!) {\n    cancelTrainingRun(id: $id) {\n      __typename\n      ... on CancelTrainingRunPayload { run { id status completedAt } }\n      ... on Error { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TestModel($runId: ID!, $inputText: String!) {\n    testTrainedModel(runId: $runId, inputText: $inputText) {\n      __typename\n      ... on TestTrainedModelPayload { reply trajectory { uuid isTest taskInput { step inputText } messages { role content } } }\n      ... on Error { message }\n    }\n  }\n"): (typeof documents)["\n  mutation TestModel($runId: ID!, $inputText: String!) {\n    testTrainedModel(runId: $runId, inputText: $inputText) {\n      __typename\n      ... on TestTrainedModelPayload { reply trajectory { uuid isTest taskInput { step inputText } messages { role content } } }\n      ... on Error { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FleetRun($id: ID!) {\n    run(id: $id) {\n      id databaseId status error backend leaseOwner leaseExpiresAt queuePosition trainedModelName projectName\n      statusHistory { eventId from to at }\n      trajectories(first: 100) { totalCount edges { node { uuid } } }\n    }\n  }\n"): (typeof documents)["\n  query FleetRun($id: ID!) {\n    run(id: $id) {\n      id databaseId status error backend leaseOwner leaseExpiresAt queuePosition trainedModelName projectName\n      statusHistory { eventId from to at }\n      trajectories(first: 100) { totalCount edges { node { uuid } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnQueue($runId: ID!) {\n    runQueuePosition(runId: $runId) { position run { id status } }\n  }\n"): (typeof documents)["\n  subscription OnQueue($runId: ID!) {\n    runQueuePosition(runId: $runId) { position run { id status } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WhoAmI {\n    viewer { authenticated scope keyName openAccess }\n  }\n"): (typeof documents)["\n  query WhoAmI {\n    viewer { authenticated scope keyName openAccess }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListApiKeys {\n    apiKeys { id name scope createdAt lastUsedAt revokedAt }\n  }\n"): (typeof documents)["\n  query ListApiKeys {\n    apiKeys { id name scope createdAt lastUsedAt revokedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiKey($name: String!, $scope: ApiKeyScope!) {\n    createApiKey(name: $name, scope: $scope) {\n      __typename\n      ... on CreateApiKeyPayload { secret apiKey { id name scope createdAt lastUsedAt revokedAt } }\n      ... on ValidationError { message issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateApiKey($name: String!, $scope: ApiKeyScope!) {\n    createApiKey(name: $name, scope: $scope) {\n      __typename\n      ... on CreateApiKeyPayload { secret apiKey { id name scope createdAt lastUsedAt revokedAt } }\n      ... on ValidationError { message issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      __typename\n      ... on RevokeApiKeyPayload { apiKey { id name revokedAt } }\n      ... on Error { message }\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      __typename\n      ... on RevokeApiKeyPayload { apiKey { id name revokedAt } }\n      ... on Error { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RunCosts($id: ID!) {\n    run(id: $id) { status costs { name total steps } }\n  }\n"): (typeof documents)["\n  query RunCosts($id: ID!) {\n    run(id: $id) { status costs { name total steps } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SearchUpdateRun($id: ID!, $name: String, $notes: String, $tags: [String!], $group: String) {\n    updateRun(id: $id, name: $name, notes: $notes, tags: $tags, group: $group) {\n      __typename\n      ... on UpdateRunPayload { run { id name notes tags group } }\n      ... on ValidationError { issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n"): (typeof documents)["\n  mutation SearchUpdateRun($id: ID!, $name: String, $notes: String, $tags: [String!], $group: String) {\n    updateRun(id: $id, name: $name, notes: $notes, tags: $tags, group: $group) {\n      __typename\n      ... on UpdateRunPayload { run { id name notes tags group } }\n      ... on ValidationError { issues { field rule message } }\n      ... on Error { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchRunIdentity($id: ID!) {\n    run(id: $id) { id name notes tags group trainedModelName }\n  }\n"): (typeof documents)["\n  query SearchRunIdentity($id: ID!) {\n    run(id: $id) { id name notes tags group trainedModelName }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SearchRecordSplit($runId: ID!, $split: String!, $points: [MetricPointInput!]!) {\n    recordMetrics(runId: $runId, split: $split, points: $points) {\n      __typename\n      ... on Error { message }\n    }\n  }\n"): (typeof documents)["\n  mutation SearchRecordSplit($runId: ID!, $split: String!, $points: [MetricPointInput!]!) {\n    recordMetrics(runId: $runId, split: $split, points: $points) {\n      __typename\n      ... on Error { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchSummary($id: ID!, $split: String) {\n    run(id: $id) { summary(split: $split) { split name last min max step } }\n  }\n"): (typeof documents)["\n  query SearchSummary($id: ID!, $split: String) {\n    run(id: $id) { summary(split: $split) { split name last min max step } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchRuns($query: String, $first: Int, $after: String, $orderBy: TrainingRunOrder) {\n    runs(filter: { query: $query }, first: $first, after: $after, orderBy: $orderBy) {\n      totalCount\n      edges { node { id name } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query SearchRuns($query: String, $first: Int, $after: String, $orderBy: TrainingRunOrder) {\n    runs(filter: { query: $query }, first: $first, after: $after, orderBy: $orderBy) {\n      totalCount\n      edges { node { id name } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;