// Resuming runStatusChanged over SSE the way EventSource does it: each event goes out with its eventId
// as the SSE `id:` line, and a request carrying `Last-Event-ID` (which EventSource sends when it
// reconnects) resumes after it, as if it had passed afterEventId. Only yoga's own SSE (distinct
// connections mode): graphql-sse's single connection mode multiplexes operations on one stream,
// where one id line cannot name a position in each of them.
import {
  getOperationAST,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type OperationDefinitionNode,
} from 'graphql';
import { isAsyncIterable, mapAsyncIterator, type Plugin } from 'graphql-yoga';

const FIELD = 'runStatusChanged';
const ARGUMENT = 'afterEventId';
/** What afterEventId accepts (run-events.graphql.ts); anything else in Last-Event-ID is ignored. */
const EVENT_ID = /^\d{1,15}$/;

/** Where the eventId sits in each result: data[root][id] (aliases included). */
interface IdPath {
  root: string;
  id: string;
}

/** The request headers of an HTTP operation (yoga's Request may be a ponyfill); graphql-ws contexts have none. */
export function headersOf(context: unknown): Pick<Headers, 'get'> | null {
  const request = typeof context === 'object' && context !== null && 'request' in context ? context.request : null;
  const headers = typeof request === 'object' && request !== null && 'headers' in request ? request.headers : null;
  return typeof headers === 'object' && headers !== null && 'get' in headers && typeof headers.get === 'function'
    ? (headers as Pick<Headers, 'get'>)
    : null;
}

const wantsEventStream = (headers: Pick<Headers, 'get'>) => (headers.get('accept') ?? '').includes('text/event-stream');

/** The subscription's runStatusChanged root field, or null for anything else. */
function statusField(operation: OperationDefinitionNode | null | undefined): FieldNode | null {
  if (operation?.operation !== 'subscription') return null;
  const field = operation.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD);
  return field?.name.value === FIELD ? field : null;
}

/** True when the operation names afterEventId itself (a literal, or a variable given a value). */
function hasAfterEventId(field: FieldNode, variables: Readonly<Record<string, unknown>> | null | undefined): boolean {
  const arg = field.arguments?.find((a) => a.name.value === ARGUMENT);
  if (!arg || arg.value.kind === Kind.NULL) return false;
  return arg.value.kind === Kind.VARIABLE ? variables?.[arg.value.name.value] != null : true;
}

/** A copy of the document with afterEventId: "<id>" added to the field (parsed documents are cached and shared). */
function withAfterEventId(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  field: FieldNode,
  eventId: string,
): DocumentNode {
  const others = (field.arguments ?? []).filter((a) => a.name.value !== ARGUMENT);
  const newField: FieldNode = {
    ...field,
    arguments: [
      ...others,
      { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: ARGUMENT }, value: { kind: Kind.STRING, value: eventId } },
    ],
  };
  const newOperation: OperationDefinitionNode = {
    ...operation,
    selectionSet: {
      ...operation.selectionSet,
      selections: operation.selectionSet.selections.map((s) => (s === field ? newField : s)),
    },
  };
  return { ...document, definitions: document.definitions.map((d) => (d === operation ? newOperation : d)) };
}

function idPath(field: FieldNode): IdPath | null {
  const id = field.selectionSet?.selections.find(
    (s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === 'eventId',
  );
  return id ? { root: (field.alias ?? field.name).value, id: (id.alias ?? id.name).value } : null;
}

type Serialisable = ExecutionResult & { stringify?: (result: ExecutionResult) => string };

/** Yoga writes `data: <stringify(result)>`; a line after the JSON (which never holds a raw newline) makes the id line of the same event. */
function withSseId(result: Serialisable, path: IdPath): Serialisable {
  const root = result.data?.[path.root];
  const id = typeof root === 'object' && root !== null ? (root as Record<string, unknown>)[path.id] : undefined;
  if (typeof id !== 'string' || !EVENT_ID.test(id)) return result;
  return { ...result, stringify: (r) => `${JSON.stringify(r)}\nid: ${id}` };
}

export function useSseResume(): Plugin {
  return {
    onSubscribe({ args, subscribeFn, setSubscribeFn }) {
      const headers = headersOf(args.contextValue);
      if (!headers || !wantsEventStream(headers)) return;
      const operation = getOperationAST(args.document, args.operationName);
      const field = statusField(operation);
      if (!operation || !field) return;
      const lastEventId = headers.get('last-event-id')?.trim();
      if (lastEventId && EVENT_ID.test(lastEventId) && !hasAfterEventId(field, args.variableValues)) {
        const document = withAfterEventId(args.document, operation, field, lastEventId);
        setSubscribeFn((subscribeArgs) => subscribeFn({ ...subscribeArgs, document }));
      }
      const path = idPath(field);
      if (!path) return;
      return {
        onSubscribeResult({ result, setResult }) {
          if (isAsyncIterable(result)) setResult(mapAsyncIterator(result, (r: Serialisable) => withSseId(r, path)));
        },
      };
    },
  };
}
