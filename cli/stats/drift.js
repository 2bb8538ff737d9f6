// Two separate invocations of the same cell differ by more than their processes' spread predicts:
// something shared by the processes of one invocation (seconds of the same machine state) moves
// them together. Measured by the harness benchmark at about 0.9% on the project's 2-core machine
// (docs/precision.md), so comparisons across result files, and the rerun interval, add this much
// per side by default.
export const INVOCATION_DRIFT = 0.01;
