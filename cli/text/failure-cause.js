// The part of a failed command's output that says why it failed. Node prints the cause first
// ("SyntaxError: Cannot use import statement outside a module") and where it happened after it (a
// stack, then "Node.js v22.20.0"), so the last lines alone are the least telling ones: the sentence
// keeps the first line that names an error, then the last lines.
const CAUSE = /^(?:Uncaught )?(?:[A-Z][A-Za-z]*(?:Error|Exception)\b|Error\b|error\b|npm ERR!|npm error\b|FATAL\b|panic:|not ok\b|\[ERR_[A-Z_]+\])/;

export function failureCause(text, { last = 3 } = {}) {
  const lines = String(text || '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const tail = lines.slice(-last);
  const cause = lines.slice(0, -last).find((line) => CAUSE.test(line));
  return (cause ? [cause, '…', ...tail] : tail).join(' | ');
}
