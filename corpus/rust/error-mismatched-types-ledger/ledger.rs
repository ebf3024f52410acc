//! A small double-entry style household ledger: accounts, categorised
//! transactions, monthly budgets and a plain-text import format.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::fmt;

/// Sample statement used by the importer tests and the demo report.
pub const SAMPLE_STATEMENT: &str = r#"
# date       amount   category   memo
2024-01-03   -42.50   food       "weekly groceries"
2024-01-05  1850.00   salary     "january pay"
2024-01-09   -12.99   media      "streaming"
2024-01-14   -61.20   transport  "train pass"
"#;

/// Default monthly limit for a category with no explicit budget.
pub const DEFAULT_LIMIT: f64 = 250.0;

/// Fraction of the limit at which a budget is reported as "close".
pub const WARN_RATIO: f64 = 0.85;

/// The currency an account is kept in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Currency {
    Eur,
    Usd,
    Gbp,
}

impl Currency {
    /// ISO-4217 code of the currency.
    pub fn code(self) -> &'static str {
        match self {
            Currency::Eur => "EUR",
            Currency::Usd => "USD",
            Currency::Gbp => "GBP",
        }
    }

    /// Rough conversion factor to euros, good enough for summaries.
    pub fn to_eur(self) -> f64 {
        match self {
            Currency::Eur => 1.0,
            Currency::Usd => 0.92,
            Currency::Gbp => 1.17,
        }
    }
}

/// Spending categories known to the importer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    Food,
    Salary,
    Media,
    Transport,
    Other,
}

impl Category {
    pub fn parse(word: &str) -> Category {
        match word.trim().to_ascii_lowercase().as_str() {
            "food" | "groceries" => Category::Food,
            "salary" | "pay" => Category::Salary,
            "media" => Category::Media,
            "transport" | "travel" => Category::Transport,
            _ => Category::Other,
        }
    }

    pub fn is_income(self) -> bool {
        matches!(self, Category::Salary)
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Category::Food => "food",
            Category::Salary => "salary",
            Category::Media => "media",
            Category::Transport => "transport",
            Category::Other => "other",
        };
        write!(f, "{:<10}", name)
    }
}

/// One booked transaction. Amounts are signed: negative means money out.
#[derive(Debug, Clone)]
pub struct Transaction {
    pub date: (u16, u8, u8),
    pub amount: f64,
    pub category: Category,
    pub memo: String,
}

impl Transaction {
    pub fn month_key(&self) -> (u16, u8) {
        (self.date.0, self.date.1)
    }
}

#[derive(Debug)]
pub enum ImportError {
    MissingField(usize, &'static str),
    BadDate(usize, String),
    BadAmount(usize, String),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::MissingField(line, what) => write!(f, "line {}: missing {}", line, what),
            ImportError::BadDate(line, s) => write!(f, "line {}: bad date {:?}", line, s),
            ImportError::BadAmount(line, s) => write!(f, "line {}: bad amount {:?}", line, s),
        }
    }
}

fn parse_date(line: usize, text: &str) -> Result<(u16, u8, u8), ImportError> {
    let parts: Vec<&str> = text.split('-').collect();
    if parts.len() != 3 {
        return Err(ImportError::BadDate(line, text.to_string()));
    }
    let bad = || ImportError::BadDate(line, text.to_string());
    let y = parts[0].parse::<u16>().map_err(|_| bad())?;
    let m = parts[1].parse::<u8>().map_err(|_| bad())?;
    let d = parts[2].parse::<u8>().map_err(|_| bad())?;
    if m == 0 || m > 12 || d == 0 || d > 31 {
        return Err(bad());
    }
    Ok((y, m, d))
}

/// Parses the whitespace separated statement format shown in `SAMPLE_STATEMENT`.
pub fn import_statement(text: &str) -> Result<Vec<Transaction>, ImportError> {
    let mut out = Vec::new();
    for (idx, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, memo) = match line.find('"') {
            Some(pos) => (&line[..pos], line[pos..].trim_matches('"').to_string()),
            None => (line, String::new()),
        };
        let mut fields = head.split_whitespace();
        let date = fields.next().ok_or(ImportError::MissingField(idx + 1, "date"))?;
        let amount = fields.next().ok_or(ImportError::MissingField(idx + 1, "amount"))?;
        let category = fields.next().unwrap_or("other");
        let amount: f64 = amount
            .parse()
            .map_err(|_| ImportError::BadAmount(idx + 1, amount.to_string()))?;
        out.push(Transaction {
            date: parse_date(idx + 1, date)?,
            amount,
            category: Category::parse(category),
            memo,
        });
    }
    Ok(out)
}

/// An account with its booked transactions.
pub struct Account {
    pub name: String,
    pub currency: Currency,
    pub transactions: Vec<Transaction>,
}

impl Account {
    pub fn new(name: &str, currency: Currency) -> Self {
        Account { name: name.to_string(), currency, transactions: Vec::new() }
    }

    pub fn book(&mut self, tx: Transaction) {
        let pos = self.transactions.partition_point(|t| t.date <= tx.date);
        self.transactions.insert(pos, tx);
    }

    /// Current balance in whole cents.
    pub fn balance_cents(&self) -> i64 {
        let total = self.transactions.iter().map(|t| t.amount).sum::<f64>();
        (total * 100.0).round()
    }

    pub fn spent_in(&self, cat: Category) -> f64 {
        self.transactions
            .iter()
            .filter(|t| t.category == cat && t.amount < 0.0)
            .map(|t| -t.amount)
            .sum()
    }

    pub fn by_month(&self) -> BTreeMap<(u16, u8), Vec<&Transaction>> {
        let mut map: BTreeMap<(u16, u8), Vec<&Transaction>> = BTreeMap::new();
        for tx in &self.transactions {
            map.entry(tx.month_key()).or_default().push(tx);
        }
        map
    }
}

/// Anything that can produce a one-line human summary.
pub trait Summarize {
    fn headline(&self) -> String;

    fn summary_lines(&self) -> Vec<String> {
        vec![self.headline()]
    }
}

impl Summarize for Transaction {
    fn headline(&self) -> String {
        let (y, m, d) = self.date;
        format!("{:04}-{:02}-{:02} {} {:>9.2} {}", y, m, d, self.category, self.amount, self.memo)
    }
}

impl Summarize for Account {
    fn headline(&self) -> String {
        format!("{} ({}), {} transactions", self.name, self.currency.code(), self.transactions.len())
    }

    fn summary_lines(&self) -> Vec<String> {
        let mut lines = vec![self.headline()];
        lines.extend(self.transactions.iter().map(|t| format!("  {}", t.headline())));
        lines
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BudgetState {
    Fine,
    Close(f64),
    Over(f64),
}

/// Monthly spending limits per category.
#[derive(Default)]
pub struct Budget {
    limits: HashMap<Category, f64>,
}

impl Budget {
    pub fn with_limit(mut self, cat: Category, limit: f64) -> Self {
        self.limits.insert(cat, limit);
        self
    }

    pub fn limit(&self, cat: Category) -> f64 {
        self.limits.get(&cat).copied().unwrap_or(DEFAULT_LIMIT)
    }

    pub fn check(&self, cat: Category, spent: f64) -> BudgetState {
        let limit = self.limit(cat);
        if spent > limit {
            BudgetState::Over(spent - limit)
        } else if spent >= limit * WARN_RATIO {
            BudgetState::Close(limit - spent)
        } else {
            BudgetState::Fine
        }
    }

    pub fn report(&self, account: &Account) -> Vec<(Category, BudgetState)> {
        let mut cats: Vec<Category> = account
            .transactions
            .iter()
            .map(|t| t.category)
            .filter(|c| !c.is_income())
            .collect();
        cats.sort();
        cats.dedup();
        cats.into_iter()
            .map(|c| (c, self.check(c, account.spent_in(c))))
            .collect()
    }
}

/// Converts all accounts to euros and returns the net worth, rounded to cents.
pub fn net_worth_eur(accounts: &[Account]) -> f64 {
    let sum: f64 = accounts
        .iter()
        .flat_map(|a| a.transactions.iter().map(move |t| t.amount * a.currency.to_eur()))
        .sum();
    (sum * 100.0).round() / 100.0
}

pub fn demo_report() -> String {
    let mut acct = Account::new("household", Currency::Eur);
    if let Ok(txs) = import_statement(SAMPLE_STATEMENT) {
        for tx in txs {
            acct.book(tx);
        }
    }
    let budget = Budget::default()
        .with_limit(Category::Food, 300.0)
        .with_limit(Category::Media, 1.5e1);
    let mut out = acct.summary_lines().join("\n");
    for (cat, state) in budget.report(&acct) {
        let note = match state {
            BudgetState::Fine => String::from("ok"),
            BudgetState::Close(left) => format!("close, {:.2} left", left),
            BudgetState::Over(by) => format!("OVER by {:.2}", by),
        };
        out.push_str(&format!("\n{} {}", cat, note));
    }
    out.push_str(&format!("\nnet worth: {:.2} EUR", net_worth_eur(std::slice::from_ref(&acct))));
    out
}
