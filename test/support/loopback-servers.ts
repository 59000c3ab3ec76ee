/**
 * What the tests of a client against hand-written loopback servers share: the servers and clients a
 * test starts, closed after it (last started, first closed), and the error a call must fail with.
 */
import { afterEach } from "vitest";
import { type Handler, type LoopbackServer, startServer } from "../../harness/loopback/loopback.ts";

export interface Cleanups {
  /** Closes `close` after the test. */
  add(close: () => Promise<void>): void;
  /** A loopback server answering with `handler`, closed after the test. */
  server(handler: Handler): Promise<LoopbackServer>;
}

export function useCleanups(): Cleanups {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()?.();
  });
  return {
    add: (close) => void cleanups.push(close),
    async server(handler) {
      const started = await startServer(handler);
      cleanups.push(started.close);
      return started;
    },
  };
}

/** The error `promise` rejects with; throws when it resolves. */
export async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}
