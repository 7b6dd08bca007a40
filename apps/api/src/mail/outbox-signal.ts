/** Tells this process's outbox worker that a row was written, so it sends at once instead of at the next poll. */
import { EventEmitter } from 'node:events';

export interface OutboxSignal {
  notify(): void;
  /** Calls `listener` on every notify; returns the unsubscribe function. */
  listen(listener: () => void): () => void;
}

export function createOutboxSignal(): OutboxSignal {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    notify: () => {
      emitter.emit('written');
    },
    listen(listener) {
      emitter.on('written', listener);
      return () => emitter.off('written', listener);
    },
  };
}
