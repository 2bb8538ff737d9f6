// A threshold the user gives as a percentage (5, 5%, 12.5): the one parser of diff's and history
// check's --fail-on-regression and bisect's --threshold. Its unit is percent.
import { UserError } from './errors.js';

// undefined (the option not given) stays undefined; true (the option given without a value) is 0.
// below: the first percentage not allowed (bisect: 100, a change of 100% or more is no threshold);
// then 0 is not allowed either.
export function parseThreshold(value, { option, below = Infinity } = {}) {
  if (value === undefined) return undefined;
  const text = value === true ? '0' : String(value).trim().replace(/%$/, '');
  // Decimal only: Number() would also take 0x10 (16) and 1e3.
  const percent = /^(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : NaN;
  const bounded = below !== Infinity;
  if (Number.isFinite(percent) && (bounded ? percent > 0 && percent < below : percent >= 0)) return percent;
  throw new UserError(bounded
    ? `${option} takes a percentage between 0 and ${below} such as 10%, not "${value}".`
    : `${option} takes a percentage like 5, not "${value}".`);
}
