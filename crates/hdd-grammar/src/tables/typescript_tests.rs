//! Facts of the TypeScript and TSX tables (one crate, two grammars), and their validation
//! against the linked parsers.

use super::javascript_tests::{JS_EXTERNAL_CASES, JSX_TEXT_CASE};
use super::testing::{
    check_externals, check_min_yields_in_place, check_no_drift, separator_of, yield_of,
};
use crate::Lang;

const TYPESCRIPT: Lang = Lang::TypeScript;
const TSX: Lang = Lang::Tsx;

#[test]
fn typescript_facts() {
    for lang in [TYPESCRIPT, TSX] {
        assert_eq!(yield_of(lang, "statement"), ";");
        assert_eq!(yield_of(lang, "expression"), "0");
        assert_eq!(yield_of(lang, "interface_declaration"), "interface a{}");
        assert_eq!(yield_of(lang, "enum_declaration"), "enum a{}");
        assert_eq!(separator_of(lang, "formal_parameters"), Some(","));
        assert_eq!(separator_of(lang, "arguments"), Some(","));
    }
    assert!(TSX.table().kind("jsx_element").is_some());
}

/// The end of a function signature (an overload, a declaration without a body).
const SIGNATURE_CASE: (&str, &str, &str) = (
    "_function_signature_automatic_semicolon",
    "function f(): void@ function f() {}",
    "function_signature",
);

#[test]
fn typescript_externals() {
    let cases: Vec<_> = JS_EXTERNAL_CASES
        .iter()
        .copied()
        .chain([SIGNATURE_CASE])
        .collect();
    // Plain TypeScript has no JSX: its scanner never produces `jsx_text`.
    check_externals(TYPESCRIPT, &cases, &["__error_recovery", "jsx_text"]);
}

#[test]
fn tsx_externals() {
    let cases: Vec<_> = JS_EXTERNAL_CASES
        .iter()
        .copied()
        .chain([SIGNATURE_CASE, JSX_TEXT_CASE])
        .collect();
    check_externals(TSX, &cases, &["__error_recovery"]);
}

#[test]
fn typescript_no_version_drift() {
    check_no_drift(TYPESCRIPT, 120);
    check_no_drift(TSX, 120);
}

#[test]
fn typescript_min_yields_parse_in_place() {
    check_min_yields_in_place(TYPESCRIPT, SAMPLE, 75);
    check_min_yields_in_place(TSX, TSX_SAMPLE, 50);
}

const SAMPLE: &str = r##"import { readFileSync } from "fs";
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
"##;

const TSX_SAMPLE: &str = r##"import React, { useState } from "react";

interface Props {
  title: string;
  items: string[];
  onPick?: (item: string) => void;
}

export function List({ title, items, onPick }: Props): JSX.Element {
  const [picked, setPicked] = useState<string | null>(null);
  const pick = (item: string) => {
    setPicked(item);
    onPick?.(item);
  };
  return (
    <section className="list">
      <h2>{title}</h2>
      <ul>
        {items.map((item) => (
          <li key={item} onClick={() => pick(item)}>
            {item === picked ? <b>{item}</b> : item}
          </li>
        ))}
      </ul>
      {items.length === 0 && <p>Nothing here.</p>}
    </section>
  );
}

type State = { count: number };

export class Counter extends React.Component<{}, State> {
  state: State = { count: 0 };
  render() {
    return <button onClick={() => this.setState({ count: this.state.count + 1 })}>{this.state.count}</button>;
  }
}
"##;
