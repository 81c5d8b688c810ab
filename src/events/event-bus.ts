// Typed publish/subscribe behind one small interface. In-process by default; with Redis, events
// published on any instance reach the subscribers of every instance (each instance delivers what
// Redis hands it, its own events included, so all instances see one order per publisher).
import { Redis } from 'ioredis';
import type { Logger } from '../logger';
import { BoundedIterator } from './bounded-iterator';
import type { TopicName, Topics } from './topics';

export interface SubscribeOptions<T> {
  /** Only events that pass are buffered for this subscriber. */
  filter?: (event: T) => boolean;
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

type Listener = (payload: unknown) => void;

/** Fans events out to this process's subscribers. */
class LocalHub {
  private readonly listeners = new Map<TopicName, Set<Listener>>();

  constructor(private readonly logger: Logger) {}

  on(topic: TopicName, fn: Listener): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  emit(topic: TopicName, payload: unknown): void {
    for (const fn of this.listeners.get(topic) ?? []) {
      try {
        fn(payload);
      } catch (err) {
        this.logger.error(`a ${topic} subscriber failed`, err);
      }
    }
  }

  count(topic?: TopicName): number {
    if (topic) return this.listeners.get(topic)?.size ?? 0;
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
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
}

const TOPICS: TopicName[] = ['runStatus', 'metricsRecorded', 'trajectoriesRecorded', 'runProgress'];

export async function createEventBus(options: EventBusOptions): Promise<EventBus> {
  const hub = new LocalHub(options.logger);
  const subscribe = <K extends TopicName>(topic: K, opts: SubscribeOptions<Topics[K]> = {}) =>
    new BoundedIterator<Topics[K]>(
      (push) => hub.on(topic, (p) => (!opts.filter || opts.filter(p as Topics[K]) ? push(p as Topics[K]) : undefined)),
      options.bufferSize,
    );

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
  for (const [name, conn] of [['publisher', pub], ['subscriber', sub]] as const) {
    conn.on('error', (err) => options.logger.warn(`redis ${name}: ${err.message}`));
  }
  await Promise.all([pub.connect(), sub.connect()]);
  sub.on('message', (channel: string, message: string) => {
    const topic = channel.slice(prefix.length) as TopicName;
    try {
      hub.emit(topic, JSON.parse(message));
    } catch (err) {
      options.logger.error(`malformed event on ${channel}`, err);
    }
  });
  await sub.subscribe(...TOPICS.map((t) => prefix + t));

  return {
    publish(topic, payload) {
      pub.publish(prefix + topic, JSON.stringify(payload)).catch((err: Error) => options.logger.error(`could not publish ${topic} to redis: ${err.message}`));
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
      sub.disconnect();
      await pub.quit().catch(() => pub.disconnect());
    },
  };
}
