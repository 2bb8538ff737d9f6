// Measures one fixture benchmark with tinybench or mitata in a fresh host process
// (bench/lib/external-worker.js), as a user of those tools would run a file: one process, one estimate.
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const here = path.dirname(fileURLToPath(import.meta.url));
const workerFile = path.join(here, 'external-worker.js');

export const TOOLS = ['tinybench', 'mitata'];

// The tools that resolve from here, as the worker will import them. They are development
// dependencies: a clone has both, a project that installed nodebench (doctor --full) has only what
// it installed itself beside it.
export function installedTools() {
  const require = createRequire(import.meta.url);
  return TOOLS.filter((tool) => {
    try {
      require.resolve(tool);
      return true;
    } catch {
      return false;
    }
  });
}

// Returns { tool, nsPerOp, p50NsPerOp, samples, wallMs } with wallMs measured here, spawn to exit.
export async function measureWithTool(tool, { suite, benchmark, budgetMs, timeoutMs = 120_000 }) {
  const started = Date.now();
  const child = await execa(process.execPath, [workerFile, JSON.stringify({ tool, suite, benchmark, budgetMs })], {
    reject: false, timeout: timeoutMs, stdin: 'ignore', env: { NODE_OPTIONS: '' }
  });
  const wallMs = Date.now() - started;
  const line = String(child.stdout || '').trim().split('\n').pop();
  if (child.exitCode !== 0 || !line) {
    throw new Error(`${tool} on ${benchmark} failed (exit ${child.exitCode}): ${String(child.stderr || '').trim().split('\n').slice(-3).join(' ')}`);
  }
  return { ...JSON.parse(line), wallMs };
}

// Keeps a tool's wall time per estimate near a target: the tools' budgets count measured time, not
// wall time (tinybench's excludes its per-call bookkeeping: an empty function's wall time is ~10x
// its budget), so the controller learns how many wall milliseconds one budget millisecond costs
// (from a short pilot run whose figures are dropped, then from every run) and sizes the budget.
export function budgetController(targetWallMs, { startupMs = 150, initialMs = 100 } = {}) {
  let goal = targetWallMs;
  let wallPerBudget = null;
  let last = initialMs;
  return {
    // nodebench's wall time per estimate, as it becomes known.
    target(ms) {
      goal = ms;
    },
    get budgetMs() {
      if (wallPerBudget === null) return last;
      last = Math.max(10, Math.round((goal - startupMs) / wallPerBudget));
      return last;
    },
    observe(wallMs) {
      const ratio = Math.max(0.2, (wallMs - startupMs) / last);
      wallPerBudget = wallPerBudget === null ? ratio : (wallPerBudget + ratio) / 2;
    }
  };
}
