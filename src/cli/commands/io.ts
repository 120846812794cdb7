/** Where a command writes: the terminal in production, buffers in tests. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** The clock a command's ranges are relative to (tests pin it); default the system's. */
  now?: () => Date;
}

/** Thrown by a command that has printed its outcome and must end with a non-zero status. */
export class CommandExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}
