/** The environment as the CLI sees it (`process.env` in production, a plain object in tests). */
export type Env = Readonly<Record<string, string | undefined>>;

export interface Stream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  /**
   * Resolves once every write so far has ended, with the first error one met (a closed pipe, a full
   * disk); the process's streams have it (process-stream.ts), streams in memory need not.
   */
  settled?(): Promise<Error | undefined>;
  /** Resolves once what was written is no longer waiting in this process (or the stream failed). */
  drained?(): Promise<void>;
}
