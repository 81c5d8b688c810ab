
      export interface PossibleTypesResultData {
        possibleTypes: {
          [key: string]: string[]
        }
      }
      const result: PossibleTypesResultData = {
  "possibleTypes": {
    "Error": [
      "CheckpointNotServedError",
      "ConflictError",
      "IllegalTransitionError",
      "MissingSettingError",
      "NotFoundError",
      "ProviderError",
      "RunModeError",
      "ValidationError"
    ],
    "MutationCancelTrainingRunResult": [
      "CancelTrainingRunPayload",
      "IllegalTransitionError",
      "NotFoundError",
      "ValidationError"
    ],
    "MutationCreateApiKeyResult": [
      "ConflictError",
      "CreateApiKeyPayload",
      "ValidationError"
    ],
    "MutationCreateDatasetResult": [
      "CreateDatasetPayload",
      "NotFoundError",
      "ValidationError"
    ],
    "MutationCreateTrainingRunResult": [
      "ConflictError",
      "CreateTrainingRunPayload",
      "MissingSettingError",
      "ValidationError"
    ],
    "MutationDeleteTrainingRunResult": [
      "ConflictError",
      "DeleteTrainingRunPayload",
      "NotFoundError",
      "ValidationError"
    ],
    "MutationEvaluateCheckpointResult": [
      "CheckpointNotServedError",
      "ConflictError",
      "EvaluateCheckpointPayload",
      "NotFoundError",
      "RunModeError",
      "ValidationError"
    ],
    "MutationRecordCheckpointResult": [
      "ConflictError",
      "NotFoundError",
      "RecordCheckpointPayload",
      "RunModeError",
      "ValidationError"
    ],
    "MutationRecordMetricsResult": [
      "ConflictError",
      "NotFoundError",
      "RecordMetricsPayload",
      "RunModeError",
      "ValidationError"
    ],
    "MutationRecordTrajectoriesResult": [
      "ConflictError",
      "NotFoundError",
      "RecordTrajectoriesPayload",
      "RunModeError",
      "ValidationError"
    ],
    "MutationRecordTrajectoryGroupsResult": [
      "ConflictError",
      "NotFoundError",
      "RecordTrajectoryGroupsPayload",
      "RunModeError",
      "ValidationError"
    ],
    "MutationRevokeApiKeyResult": [
      "ConflictError",
      "NotFoundError",
      "RevokeApiKeyPayload",
      "ValidationError"
    ],
    "MutationTestTrainedModelResult": [
      "ConflictError",
      "NotFoundError",
      "ProviderError",
      "TestTrainedModelPayload",
      "ValidationError"
    ],
    "MutationTransitionRunResult": [
      "IllegalTransitionError",
      "NotFoundError",
      "RunModeError",
      "TransitionRunPayload",
      "ValidationError"
    ],
    "MutationUpdateRunResult": [
      "NotFoundError",
      "UpdateRunPayload",
      "ValidationError"
    ],
    "Node": [
      "TrainingRun",
      "Trajectory"
    ]
  }
};
      export default result;
    