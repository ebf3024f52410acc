import { readFileSync } from "fs";
import type { Stats } from "fs";

export interface Point {
  readonly x: number;
  y?: number;
  [key: string]: unknown;
}

type Pair<T> = [T, T];
type Handler = (event: string, ...args: any[]) => void;

enum Level { Low = 1, High }

abstract class Base<T extends object> implements Iterable<T> {
  protected items: T[] = [];
  private static created = 0;
  constructor(public readonly name: string) {
    Base.created++;
  }
  abstract describe(item: T): string;
  *[Symbol.iterator](): Iterator<T> {
    yield* this.items;
  }
}

class Points extends Base<Point> {
  describe(p: Point): string {
    return `(${p.x}, ${p.y ?? 0})`;
  }
  add(p: Point): this {
    this.items.push(p);
    return this;
  }
}

function largest<T>(xs: T[], key: (x: T) => number): T | undefined {
  let best: T | undefined = undefined;
  for (const x of xs) {
    if (best === undefined || key(x) > key(best)) best = x;
  }
  return best;
}

namespace Util {
  export const twice = (n: number): number => n * 2;
}

declare function external(x: string): void;
function overloaded(x: string): string;
function overloaded(x: number): number;
function overloaded(x: any) { return x; }

async function main(): Promise<void> {
  const pts = new Points("pts").add({ x: 1 }).add({ x: 2, y: 3 });
  const p = largest([...pts], (q) => q.x) as Point;
  const level: Level = p!.x > 1 ? Level.High : Level.Low;
  const pair: Pair<number> = [1, Util.twice(level)];
  await Promise.resolve(pair);
  console.log(pts.describe(p), typeof readFileSync);
}

main().catch((e: unknown) => { throw e; });
