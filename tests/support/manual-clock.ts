import type { Clock } from '../../src/server/lib/clock.ts';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  #time: number;
  constructor(iso: string | number = Date.now()) {
    this.#time = typeof iso === 'number' ? iso : Date.parse(iso);
  }
  now(): Date {
    return new Date(this.#time);
  }
  advance(ms: number): void {
    this.#time += ms;
  }
}
