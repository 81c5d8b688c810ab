// How many read statements each query or mutation ran while it executed: only its own (by
// AsyncLocalStorage, db.countQueries), never what ran beside it (other requests, the pipeline
// runner, pollers, caches refreshed on a clock). Listeners hear each operation's count once it has
// executed, before its answer is sent; at LOG_LEVEL=debug the log says it too.
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';

import type { Database } from '../db/data-source';
import type { Logger } from '../logger';

export interface OperationQueries {
  operationName: string | null;
  /** Read statements the operation's execution ran (its resolvers and their dataloaders). */
  queries: number;
  /** The start of each statement's text, in order. */
  statements: string[];
}

export type OperationQueriesListener = (counted: OperationQueries) => void;

export class OperationQueryCounts {
  private readonly listeners = new Set<OperationQueriesListener>();

  /** Calls listener after each query or mutation executes; returns what stops it. */
  listen(listener: OperationQueriesListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  plugin(db: Pick<Database, 'countQueries'>, logger: Logger): Plugin {
    return {
      onExecute: ({ args, executeFn, setExecuteFn }) => {
        // Statement texts are kept only while someone listens (tests, tooling), not on every operation.
        const tally = { queries: 0, statements: this.listeners.size ? [] : undefined };
        setExecuteFn((a) => db.countQueries(tally, () => executeFn(a)));
        return {
          onExecuteDone: () => {
            const operation = getOperationAST(args.document, args.operationName ?? undefined);
            const counted = {
              operationName: operation?.name?.value ?? null,
              queries: tally.queries,
              statements: tally.statements ?? [],
            };
            logger.debug(`operation ${counted.operationName ?? '(anonymous)'} ran ${counted.queries} read queries`);
            for (const listener of this.listeners) listener(counted);
          },
        };
      },
    };
  }
}
