/** Exit codes of every command (docs/cli.md, "Exit codes"): scripts can tell what went wrong without parsing messages. */
export const EXIT = {
  ok: 0,
  /** Anything unexpected (store, configuration, a bug; a server's 500). */
  failure: 1,
  /** Unknown command or option, missing argument. */
  usage: 2,
  /** The request was refused as invalid: 400 (a query error included), 409, 413. */
  invalid: 3,
  /** 404. */
  notFound: 4,
  /** 401, 403: no key, a wrong or revoked one, or too little scope. */
  denied: 5,
  /** 408, 429, 502, 503, 504, no connection, timeout: worth retrying later. */
  unavailable: 6,
  /** The command finished, but some inputs failed (listed in its output). */
  partial: 7,
  /** Stopped by SIGINT; what was done is kept (run it again to resume). */
  interrupted: 130,
} as const;
