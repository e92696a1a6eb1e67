import type { DomainEvent } from '../../src/server/events/domain-events.ts';
import { type BusReceiver, Events } from '../../src/server/events/events.ts';

/**
 * Instances in one process, joined as the bus joins them: what one publishes, the others
 * receive. Each call of the answer makes one instance's events (a subscriber that throws fails
 * the test).
 */
export function sharedBus() {
  const receivers: BusReceiver[] = [];
  return async () => {
    const events = new Events((error) => {
      throw error;
    });
    await events.connect((receiver) => {
      receivers.push(receiver);
      return Promise.resolve({
        send: (event: DomainEvent) => {
          for (const other of receivers) if (other !== receiver) other.received(event);
          return Promise.resolve();
        },
        close: () => Promise.resolve(),
      });
    });
    return events;
  };
}
