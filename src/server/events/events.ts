import type { DomainEvent } from './domain-events.ts';

/** Where an event was published: on this instance, or on another one sharing its database. */
export type EventOrigin = 'here' | 'elsewhere';

/**
 * One subscriber of the domain events: a cache derived from the database, the sockets, later
 * push and the programme. Handlers are synchronous, so that an event reaches every subscriber
 * before the next one does; work that must wait runs in the background and reports its own
 * failures.
 */
export interface EventSubscriber {
  /** Each event once, those of one instance in the order that instance published them. */
  on(event: DomainEvent, origin: EventOrigin): void;
  /**
   * Events of other instances may have been lost (the bus was away and is back): whatever is
   * derived from them must be read again.
   */
  missed?(): void;
}

/**
 * When a subscriber runs: every `caches` subscriber of an event before any `clients` one, so a
 * screen told of a change (and refetching at once) finds it in every cache, never a stale 304.
 */
export type SubscriberStage = 'caches' | 'clients';

/** Carries this instance's events to the other instances (and theirs here). */
export interface EventBus {
  send(event: DomainEvent): Promise<void>;
  /**
   * Stops hearing the other instances. Sending goes on: requests still finishing while the app
   * closes publish what they changed.
   */
  close(): Promise<void>;
}

/** What a bus hands over: the events of other instances, and word that some were lost. */
export interface BusReceiver {
  received(event: DomainEvent): void;
  missed(): void;
}

/**
 * The app's domain events (decision 203): `publish` hands an event to this instance's
 * subscribers at once and, through the bus when there is one (PostgreSQL), to every other
 * instance's, which hand it to theirs.
 */
export class Events {
  readonly #stages: Record<SubscriberStage, EventSubscriber[]> = { caches: [], clients: [] };
  readonly #onError: (error: unknown, event: DomainEvent | undefined) => void;
  #bus: EventBus | undefined;

  /** `onError` hears of a subscriber that threw; the others still get the event. */
  constructor(onError: (error: unknown, event: DomainEvent | undefined) => void) {
    this.#onError = onError;
  }

  subscribe(stage: SubscriberStage, subscriber: EventSubscriber): void {
    this.#stages[stage].push(subscriber);
  }

  /**
   * Connects the bus to the other instances: `open` gets what it hands their events to. Before
   * this, events reach this instance's subscribers only.
   */
  async connect(open: (receiver: BusReceiver) => Promise<EventBus>): Promise<void> {
    this.#bus = await open({
      received: (event) => this.#dispatch(event, 'elsewhere'),
      missed: () => this.#missed(),
    });
  }

  /**
   * Called once the change committed: the event is queued on the bus first (the other instances
   * hear of it as soon as they can), then reaches this instance's subscribers at once; the
   * promise settles when the bus took it. A bus that fails fails the publish: the change is
   * made, but the other instances have not heard of it.
   */
  async publish(event: DomainEvent): Promise<void> {
    const sent = this.#bus?.send(event);
    this.#dispatch(event, 'here');
    await sent;
  }

  /** Stops hearing the other instances (see `EventBus.close`). */
  async close(): Promise<void> {
    await this.#bus?.close();
  }

  #dispatch(event: DomainEvent, origin: EventOrigin): void {
    for (const subscriber of this.#stages.caches) this.#run(event, subscriber, origin);
    for (const subscriber of this.#stages.clients) this.#run(event, subscriber, origin);
  }

  #missed(): void {
    for (const subscriber of [...this.#stages.caches, ...this.#stages.clients]) {
      try {
        subscriber.missed?.();
      } catch (error) {
        this.#onError(error, undefined);
      }
    }
  }

  #run(event: DomainEvent, subscriber: EventSubscriber, origin: EventOrigin): void {
    try {
      subscriber.on(event, origin);
    } catch (error) {
      this.#onError(error, event);
    }
  }
}
