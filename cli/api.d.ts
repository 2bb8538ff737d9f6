// Types of nodebench's programmatic API (cli/api.js). The result file's full shape is
// cli/results/result.schema.json; these types name what a caller reads most.

// Every run option of cli/options.js RUN_OPTIONS, in its order (test/api-types.test.js compares
// the names and types, so a new option fails the test until it is declared here).
export interface RunOptions {
  processes?: number; maxProcesses?: number;
  /** a cell cheaper than the run's median may keep up to this many times maxProcesses */
  cheapFactor?: number;
  targetRme?: number;
  /** where processes beyond `processes` go: cells above targetRme, or cells whose ratio is undecided */
  topUp?: 'margin' | 'decision';
  /** minutes of measuring; replacements and top-ups only while they fit (the first rounds always run) */
  timeBudgetMin?: number;
  samples?: number; minSampleMs?: number; warmupMinMs?: number; warmupMaxMs?: number; maxSampleMs?: number; minSamples?: number; timeoutSec?: number;
  rerunDisturbed?: boolean; disturbancePct?: number;
  pairing?: 'sequential' | 'duet' | 'concurrent';
  seed?: number; baseline?: string;
  metrics?: boolean; metricsMs?: number; metricsProcesses?: number;
  /** time (ns per operation) or instructions (counted under valgrind; docs/instructions.md) */
  measure?: 'time' | 'instructions';
  /** with measure 'instructions': simulated caches, misses and estimated cycles per process (docs/instructions.md) */
  cacheSim?: boolean;
}

/** A whole command as a benchmark (matrix.yaml `commands:`; nodebench exec). */
export interface Command { name: string; argv: string[]; shell: boolean; cwd: string; env: Record<string, string>; warmupRuns: number }

export interface Matrix {
  file?: string;
  baseDir?: string;
  runtimes: Array<{ spec: string; label?: string | null; provider?: string }>;
  flagSets: Array<{ name: string; flags: string[]; suites?: string[] }>;
  /** benchmarks: null (or absent) selects all of the suite's */
  suites: Array<{ name: string; benchmarks?: string[] | null; params?: Record<string, unknown> }>;
  commands?: Command[];
  /** one shard of the matrix's benchmarks (nodebench matrix --shard 2/4) */
  shard?: { index: number; count: number };
  run: RunOptions;
}

export interface Interval { level: number; low: number; high: number; method: string }

/** unit: 'instructions/op' in a run measured in instructions, which has no opsPerSec. */
export interface Summary {
  unit: 'ns/op' | 'instructions/op'; estimate: number; opsPerSec?: number; rme: number | null; ci: Interval; rerun: Interval | null;
  median: number; mean: number; samples: number; processes: number; processMedians: number[];
}

export interface Cell {
  id: number; runtime: string; runtimeLabel: string; flagSet: string; flags: string[]; suite: string; benchmark: string;
  status: 'pending' | 'ok' | 'failed' | 'unsupported' | 'timeout' | 'skipped';
  error?: string; processes: Array<Record<string, unknown>>; summary?: Summary;
  warnings?: Array<{ code: string; message: string }>;
}

export interface Result {
  schemaVersion: number; status: 'running' | 'complete' | 'interrupted'; createdAt: string; finishedAt: string | null;
  runtimes: Array<{ spec: string; label: string; version: string; v8: string }>;
  flagSets: Array<{ name: string; flags: string[]; suites?: string[] }>; run: RunOptions; cells: Cell[];
  [key: string]: unknown;
}

/** faster/slower: a change at the false discovery rate; same: the 90% interval within ±equivalence (two one-sided tests at 5%); undecided: neither (cli/stats/decision.js). */
export type Verdict = 'faster' | 'slower' | 'same' | 'undecided';

export interface Comparison {
  ratio: number; ci: { level: number; low: number; high: number }; p: number; q: number; df: number; se: number;
  significant: boolean; verdict: Verdict; method: string; singleProcess: boolean;
  /** a side's processes all ran on a disturbed machine: the interval also holds the ratio with that side's disturbance taken out */
  disturbedOnly?: boolean;
  /** how many times slower each such side may have measured than its code (null: the side was not disturbed throughout) */
  disturbance?: { a: number | null; b: number | null };
  /** how many times slower the host ran for B's processes, when the interval was widened for it (options.hostShift) */
  hostShift?: number;
  /** where a side kept half of its processes or fewer (the others set aside as disturbed): B's rate over A's between the medians over all processes, when the interval was widened to hold it (options.selection) */
  allProcessesRatio?: number;
}

export interface Progress { log(message: string): void; update(state: unknown): void; done(): void }

export function loadMatrix(file: string): Promise<Matrix>;
export function parseMatrix(text: string, file?: string): Matrix;
export function runMatrix(matrix: Matrix | string, options: { out: string; progress?: Progress; run?: RunOptions; resume?: boolean }): Promise<{ result: Result; interrupted: boolean }>;
export function loadResult(file: string): Promise<Result>;
/** A suite's variance prior (empirical Bayes, docs/statistics.md): d0 prior degrees of freedom, s02 the prior variance of log process values. */
export interface VariancePrior { d0: number; s02: number; cells: number }
/** hostShift: the log of how much slower the host ran for B's (cell's) processes than for A's (base's) (stats/host-speed.js); the interval then holds both readings. selection: false keeps the interval of the kept processes where a side kept a minority of its processes (true by default: it also holds the ratio over all processes). */
export function compare(a: Cell, b: Cell, options?: { alpha?: number; driftCv?: number; priorA?: VariancePrior | null; priorB?: VariancePrior | null; equivalence?: number; hostShift?: number; selection?: boolean }): Comparison;
export function pairedRatio(base: Cell, cell: Cell, prior?: VariancePrior | null, options?: { hostShift?: number; selection?: boolean }): { ratio: number; low: number; high: number; rme: number; p: number; paired: boolean; pairs: number; method: string; hostShift?: number; allProcessesRatio?: number };
export function geomeanRatio(comparisons: Array<{ ratio: number }>): number;
export function renderTables(result: Result, options?: { baseline?: string; color?: boolean; width?: number; verbose?: boolean }): string;
/** every run option with a default (seed, baseline and timeBudgetMin have none) */
export const DEFAULT_RUN: Required<Omit<RunOptions, 'seed' | 'baseline' | 'timeBudgetMin'>>;
export const QUICK_RUN: RunOptions;
export const RUN_OPTIONS: Array<{ name: string; type: string; default?: unknown; help: string }>;
export class UserError extends Error {}
