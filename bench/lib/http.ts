// A lean GraphQL-over-HTTP client for timing requests: node:http with a kept-alive connection, so
// what a measurement sees is the server's work and the loopback, not a client's set-up costs.
import { Agent, request } from 'node:http';

import { now } from './stats';

export interface GraphQLClient {
  /** POSTs a prepared JSON body; resolves to the response text. */
  post(body: string): Promise<string>;
  /** Runs an operation and returns `data`, failing on any GraphQL error. */
  query<T = any>(query: string, variables?: Record<string, unknown>): Promise<T>;
  close(): void;
}

export function graphqlClient(baseUrl: string): GraphQLClient {
  const url = new URL('/graphql', baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const post = (body: string) =>
    new Promise<string>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/graphql-response+json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 500)}`));
            else resolve(text);
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return {
    post,
    async query(query, variables) {
      const result = JSON.parse(await post(JSON.stringify({ query, variables }))) as { data?: any; errors?: unknown[] };
      if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors).slice(0, 1000)}`);
      return result.data;
    },
    close: () => agent.destroy(),
  };
}

export const CREATE_RUN = `mutation($input: CreateTrainingRunInput!) {
  createTrainingRun(input: $input) { __typename ... on CreateTrainingRunPayload { run { id databaseId } } ... on Error { message } }
}`;

/** Creates a TRACKED run (the benchmarks report into it the way a training script does; Atelier's pipeline does not drive it) and returns its ids. */
export async function createRun(
  client: GraphQLClient,
  projectName = 'bench',
): Promise<{ id: string; databaseId: number }> {
  const data = await client.query(CREATE_RUN, {
    input: {
      mode: 'TRACKED',
      modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
      projectName,
      taskDescription: 'Summarise support tickets in one sentence',
    },
  });
  if (data.createTrainingRun.__typename !== 'CreateTrainingRunPayload')
    throw new Error(`createTrainingRun: ${JSON.stringify(data.createTrainingRun)}`);
  return data.createTrainingRun.run;
}

/** Posts the bodies one after another (recordTrajectories or recordTrajectoryGroups), checking each payload; the total ms. */
export async function postAll(
  client: GraphQLClient,
  bodies: string[],
  expect: (reply: any) => boolean,
): Promise<number> {
  const started = now();
  for (const body of bodies) {
    const reply = JSON.parse(await client.post(body));
    if (!expect(reply.data?.recordTrajectories ?? reply.data?.recordTrajectoryGroups))
      throw new Error(`unexpected reply: ${JSON.stringify(reply).slice(0, 500)}`);
  }
  return now() - started;
}
