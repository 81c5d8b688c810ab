import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { relayStylePagination } from '@apollo/client/utilities';
import { OperationTypeNode } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws'; // Node 20 only: browsers and Node 22+ have a global WebSocket

import type { CreateTrainingRunInput } from '../gql/graphql';
import introspection from '../gql/possible-types';
import { CreateTrackedRun } from './operations';

/** Apollo Client 4 for Atelier at http(s)://host/graphql: queries and mutations over HTTP, subscriptions over graphql-ws. */
export function createApolloClient(url: string, apiKey: string) {
  const http = new HttpLink({ uri: url, headers: { authorization: `Bearer ${apiKey}` } });
  const ws = new GraphQLWsLink(
    createClient({
      url: url.replace(/^http/, 'ws'),
      connectionParams: { authorization: `Bearer ${apiKey}` },
      webSocketImpl: WebSocket,
    }),
  );
  return new ApolloClient({
    link: ApolloLink.split(({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION, ws, http),
    cache: new InMemoryCache({
      // `... on Error { message }` and `... on Node` match only when the cache knows the subtypes.
      possibleTypes: introspection.possibleTypes,
      typePolicies: {
        // One list per filter and order: fetchMore({ variables: { after } }) appends the next page.
        Query: { fields: { runs: relayStylePagination(['filter', 'orderBy']) } },
        TrainingRun: { fields: { trajectories: relayStylePagination(['filter', 'orderBy']) } },
      },
    }),
  });
}

/** A mutation answers with its payload or a typed error: switch on __typename. */
export async function createTrackedRun(client: ApolloClient, input: Omit<CreateTrainingRunInput, 'mode'>) {
  const { data } = await client.mutate({
    mutation: CreateTrackedRun,
    variables: { input: { ...input, mode: 'TRACKED' } },
  });
  const result = data!.createTrainingRun;
  switch (result.__typename) {
    case 'CreateTrainingRunPayload':
      return result.run;
    case 'ValidationError':
      throw new Error(result.issues.map((i) => `${i.field}: ${i.message} (${i.rule})`).join('; '));
    default:
      throw new Error(`${result.__typename}: ${result.message}`);
  }
}
