/** An async iterator fed by push(): what an event listener hands to a GraphQL subscription. */
export interface AsyncQueue<T> extends AsyncIterableIterator<T> {
  push(value: T): void;
  /** Ends the iteration after the values already pushed. */
  end(): void;
}

export function createAsyncQueue<T>(onClose: () => void): AsyncQueue<T> {
  const values: T[] = [];
  const waiting: ((result: IteratorResult<T>) => void)[] = [];
  let done = false;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    onClose();
  };
  const queue: AsyncQueue<T> = {
    push(value) {
      if (done) return;
      const next = waiting.shift();
      if (next) next({ value, done: false });
      else values.push(value);
    },
    end() {
      done = true;
      close();
      for (const next of waiting.splice(0)) next({ value: undefined, done: true });
    },
    next() {
      const value = values.shift();
      if (value !== undefined) return Promise.resolve({ value, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => waiting.push(resolve));
    },
    return() {
      values.length = 0;
      queue.end();
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return queue;
    },
  };
  return queue;
}
