// Types of nodebench's programmatic API (cli/api.js). The result file's full shape is
// cli/results/result.schema.json; these types name what a caller reads most.

export interface RunOptions {
  processes?: number; maxProcesses?: number; targetRme?: number; samples?: number; minSampleMs?: number;
  warmupMinMs?: number; warmupMaxMs?: number; maxSampleMs?: number; minSamples?: number; timeoutSec?: number;
  rerunDisturbed?: boolean; disturbancePct?: number; seed?: number; baseline?: string;
  metrics?: boolean; metricsMs?: number;
  /** minutes of measuring; replacements and top-ups only while they fit (the first rounds always run) */
  timeBudgetMin?: number;
}

export interface Matrix {
  file?: string;
  baseDir?: string;
  runtimes: Array<{ spec: string; label?: string }>;
  flagSets: Array<{ name: string; flags: string[]; suites?: string[] }>;
  suites: Array<{ name: string; benchmarks?: string[]; params?: Record<string, unknown> }>;
  run: RunOptions;
}

export interface Interval { level: number; low: number; high: number; method: string }

export interface Summary {
  unit: 'ns/op'; estimate: number; opsPerSec: number; rme: number | null; ci: Interval; rerun: Interval | null;
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
}

export interface Progress { log(message: string): void; update(state: unknown): void; done(): void }

export function loadMatrix(file: string): Promise<Matrix>;
export function parseMatrix(text: string, file?: string): Matrix;
export function runMatrix(matrix: Matrix | string, options: { out: string; progress?: Progress; run?: RunOptions; resume?: boolean }): Promise<{ result: Result; interrupted: boolean }>;
export function loadResult(file: string): Promise<Result>;
/** A suite's variance prior (empirical Bayes, docs/statistics.md): d0 prior degrees of freedom, s02 the prior variance of log process values. */
export interface VariancePrior { d0: number; s02: number; cells: number }
export function compare(a: Cell, b: Cell, options?: { alpha?: number; driftCv?: number; priorA?: VariancePrior | null; priorB?: VariancePrior | null; equivalence?: number }): Comparison;
export function pairedRatio(base: Cell, cell: Cell, prior?: VariancePrior | null): { ratio: number; low: number; high: number; rme: number; p: number; paired: boolean; pairs: number; method: string };
export function geomeanRatio(comparisons: Array<{ ratio: number }>): number;
export function renderTables(result: Result, options?: { baseline?: string; color?: boolean; width?: number; verbose?: boolean }): string;
export const DEFAULT_RUN: Required<Omit<RunOptions, 'seed' | 'baseline'>>;
export const QUICK_RUN: RunOptions;
export const RUN_OPTIONS: Array<{ name: string; type: string; default?: unknown; help: string }>;
export class UserError extends Error {}
