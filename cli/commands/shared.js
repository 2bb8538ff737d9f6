// Option parsing shared by the commands that run benchmarks.
import { UserError } from '../errors.js';

export const list = (value) => String(value).split(',').map((s) => s.trim()).filter(Boolean);

export function positiveInt(name) {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new UserError(`--${name} must be a whole number of at least 1, not "${value}".`);
    return n;
  };
}

export function positiveNumber(name) {
  return (value) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new UserError(`--${name} must be a positive number, not "${value}".`);
    return n;
  };
}

export function nonNegativeInt(name) {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new UserError(`--${name} must be a whole number, not "${value}".`);
    return n;
  };
}

export { runOptionsFrom, addRunOptions } from '../options.js';
