/**
 * The loop of the outbox and webhook workers (ADR 006, 065): runs a pass; runs the next one at
 * once when the pass asks for it or something woke the loop meanwhile (the outbox's signal, or
 * wake()), else sleeps until the poll interval or a wake. stop() ends it after the pass under way.
 */
import type { Logger } from '../logger.ts';

export interface PollingLoopOptions {
  /** One pass; true: run the next one at once. A pass that throws is logged and counts as false. */
  pass: () => Promise<boolean>;
  pollIntervalMs: number;
  /** Wakes the loop on every notify (the outbox's signal). */
  signal?: { listen(listener: () => void): () => void } | undefined;
  logger: Logger;
  /** For the log: `outbox`, `webhooks`. */
  name: string;
}

export class PollingLoop {
  readonly #options: PollingLoopOptions;
  #running = false;
  #loop: Promise<void> | undefined;
  #dirty = false;
  #wake: (() => void) | undefined;
  #unlisten: (() => void) | undefined;

  constructor(options: PollingLoopOptions) {
    this.#options = options;
  }

  get running(): boolean {
    return this.#running;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#unlisten = this.#options.signal?.listen(() => this.wake());
    this.#loop = this.#run();
  }

  /** Ends the loop once the pass under way is over; false when it was not running. */
  async stop(): Promise<boolean> {
    if (!this.#running) return false;
    this.#running = false;
    this.#unlisten?.();
    this.wake();
    await this.#loop;
    return true;
  }

  wake(): void {
    this.#dirty = true;
    this.#wake?.();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#dirty = false;
      let again = false;
      try {
        again = await this.#options.pass();
      } catch (error) {
        this.#options.logger.error({ err: error }, `${this.#options.name}: pass failed`);
      }
      if (!this.#running) break;
      if (again || this.#dirty) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#options.pollIntervalMs);
        timer.unref();
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }
}
