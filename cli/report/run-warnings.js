// The warnings a run kept about the machine it ran on (the load average at its start and end, the
// CPU frequency governor): said on stderr as the run ends, and again by every report and diff of its
// file, since they qualify every figure in it and a reader of the file never saw that stderr. Files
// of schema version 1 kept plain strings.
export const runWarningMessages = (result) => (result?.warnings || []).map((w) => (typeof w === 'string' ? w : w.message));

// One line per warning, plain text (each format escapes it): "warning: ..." for a report of one
// file; for a diff, whose run said it ("warning (A, a.json): ..."), once when both sides are one file.
export function runWarningLines(result, { who } = {}) {
  return runWarningMessages(result).map((message) => `warning${who ? ` (${who})` : ''}: ${message}`);
}

export function diffRunWarningLines({ resultA, resultB, fileA, fileB }) {
  if (resultA === resultB) return runWarningLines(resultA);
  return [...runWarningLines(resultA, { who: `A, ${fileA}` }), ...runWarningLines(resultB, { who: `B, ${fileB}` })];
}
