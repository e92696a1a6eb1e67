import { UnavailableError } from '../http/errors.ts';

/** What a picture costs to render: a still photo, or an animation (many frames). */
export type ImageLane = 'still' | 'animated';

/**
 * Thrown when a picture would wait longer than allowed: a 503 whose `Retry-After` is the wait
 * the queue estimates, so clients come back when it has drained.
 */
export class ImageQueueFullError extends UnavailableError {
  constructor(waitMs: number) {
    super('images');
    this.retryAfter(Math.max(1, Math.ceil(waitMs / 1000)));
    this.name = 'ImageQueueFullError';
  }
}

interface Waiting {
  lane: ImageLane;
  start: () => void;
}

/** Starting guesses of one render's time, before any was measured. */
const FIRST_GUESS_MS: Record<ImageLane, number> = { still: 500, animated: 5_000 };

/**
 * The queue in front of the image workers (one per core), fair to still photos: animations
 * take at most all the workers but one (one, on one core), and a still photo is always started
 * before a waiting animation, so a burst of heavy GIFs never holds a small photo back for more
 * than one render. It keeps a moving average of each lane's render time, estimates the wait a
 * new picture would have, and refuses it (`ImageQueueFullError`) when that is over `maxWaitMs`.
 */
export class ImageQueue {
  readonly #slots: number;
  readonly #animatedSlots: number;
  readonly #maxWaitMs: number;
  readonly #running: Record<ImageLane, number> = { still: 0, animated: 0 };
  readonly #waiting: Waiting[] = [];
  readonly #averageMs: Record<ImageLane, number> = { ...FIRST_GUESS_MS };

  constructor(options: { slots: number; maxWaitMs: number }) {
    this.#slots = Math.max(1, options.slots);
    this.#animatedSlots = Math.max(1, this.#slots - 1);
    this.#maxWaitMs = options.maxWaitMs;
  }

  /** The wait a new picture of `lane` can expect before a worker starts it, in ms. */
  estimatedWaitMs(lane: ImageLane): number {
    const busy = this.#running.still + this.#running.animated;
    const waitingStill = this.#waiting.filter((job) => job.lane === 'still').length;
    if (lane === 'still') {
      // Ahead of it: the stills waiting, on every worker, once one is free.
      const untilFree = busy >= this.#slots ? this.#averageMs.still / 2 : 0;
      return untilFree + (waitingStill * this.#averageMs.still) / this.#slots;
    }
    const waitingAnimated = this.#waiting.length - waitingStill;
    const ahead = waitingAnimated + Math.max(0, this.#running.animated - this.#animatedSlots + 1);
    return (
      (ahead * this.#averageMs.animated) / this.#animatedSlots +
      (waitingStill * this.#averageMs.still) / this.#slots
    );
  }

  /** Runs `job` on a worker when its turn comes; refuses it when the wait would be too long. */
  async run<T>(lane: ImageLane, job: () => Promise<T>): Promise<T> {
    const wait = this.estimatedWaitMs(lane);
    if (this.#maxWaitMs > 0 && wait > this.#maxWaitMs) throw new ImageQueueFullError(wait);
    if (this.#canStart(lane)) this.#running[lane] += 1;
    // Counted as running by `#next` when it is started.
    else await new Promise<void>((start) => this.#waiting.push({ lane, start }));
    const started = performance.now();
    try {
      return await job();
    } finally {
      this.#running[lane] -= 1;
      const took = performance.now() - started;
      this.#averageMs[lane] = this.#averageMs[lane] * 0.7 + took * 0.3;
      this.#next();
    }
  }

  #canStart(lane: ImageLane): boolean {
    const busy = this.#running.still + this.#running.animated;
    if (busy >= this.#slots) return false;
    return lane === 'still' || this.#running.animated < this.#animatedSlots;
  }

  /** Starts what may start now: stills first, then animations in turn. */
  #next(): void {
    for (const lane of ['still', 'animated'] as const) {
      for (;;) {
        if (!this.#canStart(lane)) break;
        const index = this.#waiting.findIndex((job) => job.lane === lane);
        if (index === -1) break;
        const [job] = this.#waiting.splice(index, 1);
        this.#running[lane] += 1;
        job?.start();
      }
    }
  }
}
