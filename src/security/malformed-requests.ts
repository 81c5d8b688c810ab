// A request yoga cannot even read (variables or extensions that are not JSON in a GET, say) is the
// client's mistake: answer 400 with the reason, not a masked 500.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export function useMalformedRequests(): Plugin {
  return {
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      setRequestParser(async (request) => {
        try {
          return await requestParser(request);
        } catch (err) {
          if (err instanceof GraphQLError) throw err;
          throw new GraphQLError(`the request is malformed: ${err instanceof Error ? err.message : String(err)}`, {
            extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
          });
        }
      });
    },
  };
}
