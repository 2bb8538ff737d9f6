// What the result file keeps of one finished worker process (timing or service).
export function processRecord(round, result, wallMs) {
  const m = result.measurement;
  const record = {
    round,
    samplesNsPerOp: m.samplesNsPerOp,
    iterationsPerSample: m.iterationsPerSample,
    calibrationBatches: m.calibrationBatches,
    warmup: m.warmup,
    sampleMs: m.sampleMs,
    cpuNsPerOp: m.cpuNsPerOp,
    cpuMethod: m.cpuMethod,
    memory: result.memory,
    clockResolutionNs: result.clockResolutionNs ?? null,
    wallMs
  };
  if (result.service) record.service = result.service;
  return record;
}
