// nodebench's own suite format in TypeScript (an ES module once its types are stripped).
// Run:  nodebench run examples/typescript-suite.ts --node 18,22,24
// nodebench strips the types (sucrase, in a loader hook off the measured thread) on Node 18.19+ and
// 20.6+, also on 22.18+ and 24, which could themselves, so that every runtime runs the same code;
// older runtimes report the cells unsupported.
interface Point { x: number; y: number }
interface Context { points: Point[] }

export const description: string = 'Summing distances: a for loop against reduce';
export const params = { count: 200 };

export function setup(params: { count: number }): Context {
  const points: Point[] = [];
  for (let i = 0; i < params.count; i++) points.push({ x: (i * 37) % 101, y: (i * 53) % 97 });
  return { points };
}

function distance(p: Point): number {
  return Math.sqrt(p.x * p.x + p.y * p.y);
}

export const benchmarks = {
  'for loop': (ctx: Context): number => {
    let sum = 0;
    for (let i = 0; i < ctx.points.length; i++) sum += distance(ctx.points[i]);
    return sum;
  },
  'reduce': (ctx: Context): number => ctx.points.reduce((sum: number, p: Point) => sum + distance(p), 0)
};
