// Errors a user can cause (bad input, unknown version, missing file, no network) are UserErrors:
// the CLI prints their one-sentence message and exits with code 2, without a stack trace.
// Anything else is a bug in nodebench and keeps its stack.
export class UserError extends Error {
  constructor(message, { exitCode = 2, cause } = {}) {
    super(message, cause ? { cause } : undefined);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}

export const isUserError = (err) => err instanceof UserError;
