import React, { useState } from "react";

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
