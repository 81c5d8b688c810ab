// Typed publish/subscribe behind one small interface: in-process by default, Redis when configured.
import { createPubSub } from 'graphql-yoga';
import type { TopicName, Topics } from './topics';

export interface EventBus {
  publish<K extends TopicName>(topic: K, payload: Topics[K]): void;
  subscribe<K extends TopicName>(topic: K): AsyncIterableIterator<Topics[K]>;
  close(): Promise<void>;
}

type PubSubTopics = { [K in TopicName]: [Topics[K]] };

export function createInProcessEventBus(): EventBus {
  const pubsub = createPubSub<PubSubTopics>();
  return {
    publish: (topic, payload) => pubsub.publish(topic, payload as never),
    subscribe: (topic) => pubsub.subscribe(topic) as never,
    async close() {},
  };
}
