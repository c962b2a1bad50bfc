/** Exit codes of every command (README "Command line"). */
export const EXIT = {
  ok: 0,
  /** The command could not do its work (store, configuration, unexpected error). */
  error: 1,
  /** Bad arguments or options. */
  usage: 2,
  /** The command finished, but some inputs failed (listed in its output). */
  partial: 3,
  /** Stopped by SIGINT; what was done is kept. */
  interrupted: 130,
} as const;
