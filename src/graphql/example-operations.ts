// The operation GraphiQL opens with: something a new user can run straight away.
export const GRAPHIQL_DEFAULT_QUERY = `# Welcome to Atelier. Run this to list the latest training runs;
# open the Docs panel to see everything else.
query LatestRuns {
  runs(first: 10) {
    totalCount
    edges {
      node {
        id
        status
        projectName
        modelName
        createdAt
        metrics { step avgReward trainingLoss totalTrajectories }
      }
    }
  }
}

# Start a run (PIPELINE needs ART_BACKEND_URL and an OpenAI-compatible provider;
# a TRACKED run records what your own training script reports):
# mutation {
#   createTrainingRun(input: {
#     mode: TRACKED
#     modelName: "Qwen/Qwen2.5-1.5B-Instruct"
#     projectName: "demo"
#     taskDescription: "Summarise support tickets in one sentence"
#   }) {
#     __typename
#     ... on CreateTrainingRunPayload { run { id status } }
#     ... on Error { message }
#   }
# }

# Watch every status change live (runs over WebSocket from this page):
# subscription { runStatusChanged { eventId from to run { id projectName status } } }
`;
