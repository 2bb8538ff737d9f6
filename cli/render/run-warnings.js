// The warnings a run kept about the machine it ran on (the load average at its start and end, the
// CPU frequency governor): said on stderr as the run ends, and again by every report and diff of its
// file, since they qualify every figure in it and a reader of the file never saw that stderr.
// Warnings are { code, message }: a schema-1 file's sentences are migrated on read (results/migrate.js).

// One line per warning, plain text (each format escapes it): "warning: ..." for a report of one
// file; for a diff, whose run said it ("warning (A, a.json): ..."), once when both sides are one file.
export function runWarningLines(result, { who } = {}) {
  return (result.warnings || []).map((w) => `warning${who ? ` (${who})` : ''}: ${w.message}`);
}

export function diffRunWarningLines({ resultA, resultB, fileA, fileB }) {
  if (resultA === resultB) return runWarningLines(resultA);
  return [...runWarningLines(resultA, { who: `A, ${fileA}` }), ...runWarningLines(resultB, { who: `B, ${fileB}` })];
}
