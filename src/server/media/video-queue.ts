/**
 * What an ffmpeg job costs: a `frame` (reading a video and taking its poster while its upload
 * waits: a second or so) or a `rendition` (encoding a playable copy in the background: up to
 * the clip's length).
 */
export type VideoLane = 'frame' | 'rendition';

interface Waiting {
  lane: VideoLane;
  /** Whose video it is: renditions take turns between them. */
  owner: string;
  start: () => void;
}

/**
 * The queue in front of ffmpeg, built like the image queue (decision 129): at most `slots`
 * ffmpeg processes at once (one per core), renditions at most `renditionSlots` of them (all but
 * one core), and a waiting frame (an upload in progress) always starts before a waiting
 * rendition, so posting a video is never held up by other people's encodes. Renditions take
 * turns by owner: the next one started is the oldest of the attendee with the fewest renditions
 * running, then the one served longest ago, so one person's ten clips do not hold back
 * everyone else's one.
 */
export class VideoQueue {
  readonly #slots: number;
  readonly #renditionSlots: number;
  readonly #running: Record<VideoLane, number> = { frame: 0, rendition: 0 };
  readonly #runningByOwner = new Map<string, number>();
  /** When each owner's rendition last started (a counter, not a clock). */
  readonly #servedAt = new Map<string, number>();
  #turn = 0;
  readonly #waiting: Waiting[] = [];

  constructor(options: { slots: number; renditionSlots: number }) {
    this.#slots = Math.max(1, options.slots);
    this.#renditionSlots = Math.max(1, Math.min(this.#slots, options.renditionSlots));
  }

  /** How many jobs of each lane wait, and run. */
  get stats(): { waiting: number; running: Record<VideoLane, number> } {
    return { waiting: this.#waiting.length, running: { ...this.#running } };
  }

  /** Runs `job` when its turn comes. */
  async run<T>(lane: VideoLane, owner: string, job: () => Promise<T>): Promise<T> {
    if (this.#canStart(lane)) this.#started(lane, owner);
    // Counted as running by `#next` when it is started.
    else await new Promise<void>((start) => this.#waiting.push({ lane, owner, start }));
    try {
      return await job();
    } finally {
      this.#running[lane] -= 1;
      if (lane === 'rendition') {
        const left = (this.#runningByOwner.get(owner) ?? 1) - 1;
        if (left > 0) this.#runningByOwner.set(owner, left);
        else this.#runningByOwner.delete(owner);
      }
      this.#next();
    }
  }

  #started(lane: VideoLane, owner: string): void {
    this.#running[lane] += 1;
    if (lane === 'rendition') {
      this.#runningByOwner.set(owner, (this.#runningByOwner.get(owner) ?? 0) + 1);
      this.#servedAt.set(owner, ++this.#turn);
      // Owners not seen for a long while are forgotten; the map stays small.
      if (this.#servedAt.size > 10_000) {
        for (const [known] of this.#servedAt) {
          this.#servedAt.delete(known);
          if (this.#servedAt.size <= 5_000) break;
        }
      }
    }
  }

  #canStart(lane: VideoLane): boolean {
    const busy = this.#running.frame + this.#running.rendition;
    if (busy >= this.#slots) return false;
    return lane === 'frame' || this.#running.rendition < this.#renditionSlots;
  }

  /** The waiting rendition whose turn it is; -1 when none waits. */
  #nextRendition(): number {
    let best = -1;
    let bestKey: [number, number] | undefined;
    for (const [index, job] of this.#waiting.entries()) {
      if (job.lane !== 'rendition') continue;
      const key: [number, number] = [
        this.#runningByOwner.get(job.owner) ?? 0,
        this.#servedAt.get(job.owner) ?? 0,
      ];
      if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
        best = index;
        bestKey = key;
      }
    }
    return best;
  }

  /** Starts what may start now: frames first, then renditions by turn. */
  #next(): void {
    for (const lane of ['frame', 'rendition'] as const) {
      for (;;) {
        if (!this.#canStart(lane)) break;
        const index =
          lane === 'frame'
            ? this.#waiting.findIndex((job) => job.lane === 'frame')
            : this.#nextRendition();
        if (index === -1) break;
        const [job] = this.#waiting.splice(index, 1);
        if (!job) break;
        this.#started(lane, job.owner);
        job.start();
      }
    }
  }
}
