// An event-sourced account ledger: typed events, a reducer over them, projections, a
// tiny query language and a report.
type Cents = number;
type AccountId = string;

enum Kind {
  Opened = "opened",
  Deposited = "deposited",
  Withdrawn = "withdrawn",
  Closed = "closed",
}

interface Base<K extends Kind> {
  kind: K;
  account: AccountId;
  at: number;
}

interface Opened extends Base<Kind.Opened> {
  owner: string;
  limit?: Cents;
}

interface Deposited extends Base<Kind.Deposited> {
  amount: Cents;
}

interface Withdrawn extends Base<Kind.Withdrawn> {
  amount: Cents;
  reason: string;
}

interface Closed extends Base<Kind.Closed> {}

type LedgerEvent = Opened | Deposited | Withdrawn | Closed;

interface Account {
  id: AccountId;
  owner: string;
  balance: Cents;
  limit: Cents;
  open: boolean;
  history: number;
}

type State = { [id: string]: Account | undefined };

function each<T>(items: T[], visit: (item: T, index: number) => void): void {
  for (let i = 0; i < items.length; i++) {
    visit(items[i], i);
  }
}

function map<T, U>(items: T[], f: (item: T) => U): U[] {
  const out: U[] = [];
  each(items, (item) => {
    out.push(f(item));
  });
  return out;
}

class LedgerError {
  constructor(readonly account: AccountId, readonly message: string) {}
}

function apply(state: State, event: LedgerEvent): State {
  const current = state[event.account];
  switch (event.kind) {
    case Kind.Opened:
      if (current) throw new LedgerError(event.account, "already open");
      state[event.account] = {
        id: event.account,
        owner: event.owner,
        balance: 0,
        limit: event.limit ?? 0,
        open: true,
        history: 1,
      };
      return state;
    case Kind.Deposited:
      if (!current || !current.open) throw new LedgerError(event.account, "not open");
      current.balance += event.amount;
      current.history++;
      return state;
    case Kind.Withdrawn:
      if (!current || !current.open) throw new LedgerError(event.account, "not open");
      if (current.balance + current.limit < event.amount) {
        throw new LedgerError(event.account, "insufficient funds: " + event.reason);
      }
      current.balance -= event.amount;
      current.history++;
      return state;
    case Kind.Closed:
      if (!current) throw new LedgerError(event.account, "unknown");
      current.open = false;
      return state;
  }
}

function replay(events: LedgerEvent[]): State {
  let state: State = {};
  each(events, (event) => {
    state = apply(state, event);
  });
  return state;
}

type Query = { owner?: string; minBalance?: Cents; openOnly?: boolean };

function select(state: State, ids: AccountId[], query: Query): Account[] {
  const found: Account[] = [];
  each(ids, (id) => {
    const account = state[id];
    if (!account) return;
    if (query.owner !== undefined && account.owner !== query.owner) return;
    if (query.minBalance !== undefined && account.balance < query.minBalance) return;
    if (query.openOnly && !account.open) return;
    found.push(account);
  });
  return found;
}

function formatCents(value: Cents): string {
  const sign = value < 0 ? "-" : "";
  const abs = value < 0 ? -value : value;
  const cents = abs % 100;
  return sign + (abs - cents) / 100 + "." + (cents < 10 ? "0" : "") + cents;
}

function report(accounts: Account[]): string[] {
  return map(accounts, (a) => a.id + " " + a.owner + " " + formatCents(a.balance));
}

const events: LedgerEvent[] = [
  { kind: Kind.Opened, account: "acc-1", at: 1, owner: "ada", limit: 5000 },
  { kind: Kind.Opened, account: "acc-2", at: 2, owner: "bob" },
  { kind: Kind.Deposited, account: "acc-1", at: 3, amount: 12500 },
  { kind: Kind.Withdrawn, account: "acc-1", at: 4, amount: 800, reason: "rent" },
  { kind: Kind.Deposited, account: "acc-2", at: 5, amount: 300 },
  { kind: Kind.Closed, account: "acc-2", at: 6 },
];

const state = replay(events);
const rich = select(state, ["acc-1", "acc-2"], { minBalance: 1000, openOnly: true });
const lines = report(rich);
const totals = map(["acc-1", "acc-2", "acc-3"], (id) => formatCents(state[id]!.balance));
console.log(lines.length, totals.length);
