// Typed publish/subscribe behind one small interface. In-process by default; with Redis, events
// published on any instance reach the subscribers of every instance (each instance delivers what
// Redis hands it, its own events included, so all instances see one order per publisher).
import { GraphQLError } from 'graphql';
import { Redis } from 'ioredis';

import type { Logger } from '../logger';
import { BoundedIterator } from './bounded-iterator';
import { StatusRecovery, type StatusLog } from './status-recovery';
import type { RunStatusEvent, TopicName, Topics } from './topics';

/** Live events of a topic that cannot be replayed may have been missed: the client must subscribe again. */
export class EventsInterruptedError extends GraphQLError {
  constructor(topic: TopicName) {
    super(
      `subscription closed: live ${topic} events were interrupted (the event bus lost Redis for a moment) and some may be missing; subscribe again and re-read what you need`,
      {
        extensions: { code: 'EVENTS_INTERRUPTED', topic },
      },
    );
  }
}

export interface SubscribeOptions<T> {
  /** Only events that pass are buffered for this subscriber. */
  filter?: (event: T) => boolean;
  /**
   * Ends the subscription when a status event passes (a run's final transition): the events queued
   * before it are still delivered, then the subscription completes. Events published before the
   * status event are queued before it (one publisher's events arrive in order; with Redis, status
   * events pass through recovery, which only delays them), so nothing published first is lost.
   */
  endOnStatus?: (event: RunStatusEvent) => boolean;
  /**
   * How many subscribers this one listener serves (a shared subscription's members,
   * src/server/shared-subscriptions.ts): what listenerCount counts for it. One by default.
   */
  members?: () => number;
}

export interface EventBus {
  publish<K extends TopicName>(topic: K, payload: Topics[K]): void;
  subscribe<K extends TopicName>(topic: K, options?: SubscribeOptions<Topics[K]>): BoundedIterator<Topics[K]>;
  /** Live subscribers of a topic (or of all topics): what a disconnect must bring back down. */
  listenerCount(topic?: TopicName): number;
  /** Whether the bus can deliver (Redis reachable, when used). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

type Listener = ((payload: unknown) => void) & { members?: () => number };

/** Fans events out to this process's subscribers. */
class LocalHub {
  private readonly listeners = new Map<TopicName, Set<Listener>>();
  /** Called after the listeners, and not counted as subscribers: what ends a subscription. */
  private readonly watchers = new Map<TopicName, Set<Listener>>();

  constructor(private readonly logger: Logger) {}

  on(topic: TopicName, fn: Listener, members?: () => number): () => void {
    // Each subscribe passes a function of its own, so the weight belongs to that listener alone.
    if (members) fn.members = members;
    return this.add(this.listeners, topic, fn);
  }

  watch(topic: TopicName, fn: Listener): () => void {
    return this.add(this.watchers, topic, fn);
  }

  private add(map: Map<TopicName, Set<Listener>>, topic: TopicName, fn: Listener): () => void {
    let set = map.get(topic);
    if (!set) map.set(topic, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  emit(topic: TopicName, payload: unknown): void {
    for (const fn of [...(this.listeners.get(topic) ?? []), ...(this.watchers.get(topic) ?? [])]) {
      try {
        fn(payload);
      } catch (err) {
        this.logger.error(`a ${topic} subscriber failed`, err);
      }
    }
  }

  /** Subscribers, not listeners: a shared subscription's one listener counts for each of its members. */
  count(topic?: TopicName): number {
    let n = 0;
    for (const [name, set] of this.listeners) {
      if (topic && name !== topic) continue;
      for (const fn of set) n += fn.members ? fn.members() : 1;
    }
    return n;
  }
}

export interface EventBusOptions {
  /** Events a subscriber may fall behind before it is cut off. */
  bufferSize: number;
  redisUrl?: string;
  /** Channel namespace: deployments sharing one Redis stay apart. */
  redisPrefix?: string;
  logger: Logger;
  /** Stored status transitions: with Redis, status events lost on the way are found there and delivered. */
  statusLog?: StatusLog;
}

/** Every topic crosses Redis; all but runStatus (recovered from storage) are unrecoverable after a lost connection. */
const TOPICS: TopicName[] = [
  'runStatus',
  'metricsRecorded',
  'trajectoriesRecorded',
  'trajectoriesScored',
  'runProgress',
  'evaluationUpdated',
  'runStall',
  'checkpointRecorded',
];

export async function createEventBus(options: EventBusOptions): Promise<EventBus> {
  const hub = new LocalHub(options.logger);
  /** What each topic's live subscriptions can be told: only `fail` is needed here, so the payload type does not matter. */
  const open = new Map<TopicName, Set<{ fail(error: Error): void }>>();
  const subscribe = <K extends TopicName>(topic: K, opts: SubscribeOptions<Topics[K]> = {}) => {
    const subscribers = open.get(topic) ?? new Set();
    open.set(topic, subscribers);
    const iterator: BoundedIterator<Topics[K]> = new BoundedIterator<Topics[K]>((push) => {
      const offs = [
        hub.on(
          topic,
          (p) => (!opts.filter || opts.filter(p as Topics[K]) ? push(p as Topics[K]) : undefined),
          opts.members,
        ),
      ];
      // Watchers run after listeners: on the runStatus topic itself, the final event is queued before the end.
      const endOn = opts.endOnStatus;
      if (endOn) offs.push(hub.watch('runStatus', (p) => (endOn(p as RunStatusEvent) ? iterator.end() : undefined)));
      return () => {
        for (const off of offs) off();
        subscribers.delete(iterator);
      };
    }, options.bufferSize);
    subscribers.add(iterator);
    return iterator;
  };
  /** Ends the live subscriptions of topics whose missed events cannot be recovered. */
  const interrupt = (topics: TopicName[]) => {
    for (const topic of topics)
      for (const iterator of [...(open.get(topic) ?? [])]) iterator.fail(new EventsInterruptedError(topic));
  };

  if (!options.redisUrl) {
    return {
      publish: (topic, payload) => hub.emit(topic, payload),
      subscribe,
      listenerCount: (topic) => hub.count(topic),
      ready: async () => true,
      close: async () => {},
    };
  }

  const prefix = `${options.redisPrefix ?? 'atelier'}:events:`;
  const connect = () =>
    new Redis(options.redisUrl!, {
      connectTimeout: 5000,
      commandTimeout: 5000,
      maxRetriesPerRequest: 3,
      retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
      lazyConnect: true,
    });
  const pub = connect();
  const sub = connect();
  for (const [name, conn] of [
    ['publisher', pub],
    ['subscriber', sub],
  ] as const) {
    conn.on('error', (err) => options.logger.warn(`redis ${name}: ${err.message}`));
  }
  await Promise.all([pub.connect(), sub.connect()]);
  const recovery = options.statusLog
    ? new StatusRecovery({ log: options.statusLog, deliver: (e) => hub.emit('runStatus', e), logger: options.logger })
    : null;
  sub.on('message', (channel: string, message: string) => {
    const topic = channel.slice(prefix.length) as TopicName;
    try {
      const payload: unknown = JSON.parse(message);
      // Status events go through recovery: delivered once, after any earlier one that went missing.
      if (topic === 'runStatus' && recovery) void recovery.receive(payload as RunStatusEvent);
      else hub.emit(topic, payload);
    } catch (err) {
      options.logger.error(`malformed event on ${channel}`, err);
    }
  });
  await sub.subscribe(...TOPICS.map((t) => prefix + t));
  await recovery?.start();
  // After a lost connection: status events come back from storage; the others cannot, so their
  // subscribers are told rather than left waiting for events that will never come.
  const replayable: TopicName[] = recovery ? ['runStatus'] : [];
  const unrecoverable = TOPICS.filter((t) => !replayable.includes(t));
  let lost = false;
  sub.on('close', () => (lost = true));
  sub.on('ready', () => {
    if (!lost) return;
    lost = false;
    options.logger.warn('redis subscriber reconnected: recovering status events, closing other live subscriptions');
    void recovery?.check();
    interrupt(recovery ? unrecoverable : TOPICS);
  });

  return {
    publish(topic, payload) {
      pub.publish(prefix + topic, JSON.stringify(payload)).catch((err: Error) => {
        options.logger.error(`could not publish ${topic} to redis: ${err.message}`);
        // Here at least, nobody waits in silence for it (status events are recovered from storage).
        if (!(topic === 'runStatus' && recovery)) interrupt([topic]);
      });
    },
    subscribe,
    listenerCount: (topic) => hub.count(topic),
    async ready() {
      try {
        return (await pub.ping()) === 'PONG' && sub.status === 'ready';
      } catch {
        return false;
      }
    },
    async close() {
      recovery?.stop();
      sub.disconnect();
      await pub.quit().catch(() => pub.disconnect());
    },
  };
}
