// When each process runs (launch.js decides how). Launches are interleaved across cells in a
// shuffled round-robin: round r runs process r of every cell, in an order shuffled per round by a
// seeded PRNG (recorded in the result file). Machine drift (thermal, other tenants) then spreads over
// all cells instead of landing on whichever cell ran last, as Node core's compare.js does by
// alternating binaries.

// mulberry32: small, fast, and the same sequence on every machine for a given seed.
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle(items, random) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// cells: the runnable cells; returns [{ cellId, round }] in launch order.
export function scheduleLaunches(cellIds, processes, seed) {
  const random = prng(seed);
  const launches = [];
  for (let round = 0; round < processes; round++) {
    for (const cellId of shuffle(cellIds, random)) launches.push({ cellId, round });
  }
  return launches;
}
