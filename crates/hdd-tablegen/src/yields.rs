//! Minimal yields: the shortest derivation of every rule, as the least fixed
//! point of evaluating all rule bodies until none improves.

use crate::error::GenerateError;
use crate::grammar::Grammar;
use crate::rule::{Rule, Yield};

/// Whether `a` is a strictly cheaper yield than `b` (`None`: no finite yield yet).
pub(crate) fn cheaper(a: Option<&Yield>, b: Option<&Yield>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.cost() < b.cost(),
        (Some(_), None) => true,
        (None, _) => false,
    }
}

/// The least fixed point of the minimal yields: every rule starts at
/// infinity and all rules are re-evaluated until none improves. Returns the
/// yield of every name of the grammar (rules, then external tokens) and the
/// number of rounds it took.
pub(crate) fn least_fixed_point(grammar: &Grammar) -> Result<(Vec<Yield>, usize), GenerateError> {
    let mut best: Vec<Option<Yield>> = vec![None; grammar.bodies.len()];
    best.extend(grammar.external_yields.iter().cloned().map(Some));
    let mut rounds = 0;
    loop {
        rounds += 1;
        let mut changed = false;
        for (i, body) in grammar.bodies.iter().enumerate() {
            let y = eval(body, &best);
            if cheaper(y.as_ref(), best[i].as_ref()) {
                best[i] = y;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let underivable: Vec<String> = best
        .iter()
        .zip(&grammar.names)
        .filter(|(y, _)| y.is_none())
        .map(|(_, n)| n.clone())
        .collect();
    if !underivable.is_empty() {
        return Err(GenerateError::Underivable(underivable));
    }
    Ok((best.into_iter().flatten().collect(), rounds))
}

/// Evaluates the yield of a rule body under the current best yields.
pub(crate) fn eval(rule: &Rule, best: &[Option<Yield>]) -> Option<Yield> {
    match rule {
        Rule::Blank | Rule::Repeat(_) => Some(Yield::empty()),
        Rule::Tok(tok) => Some(Yield {
            toks: vec![tok.clone()],
        }),
        Rule::Symbol(i) => best[*i].clone(),
        Rule::Seq(members) => {
            let mut toks = Vec::new();
            for member in members {
                toks.extend(eval(member, best)?.toks);
            }
            Some(Yield { toks })
        }
        Rule::Choice(members) => {
            let mut winner: Option<Yield> = None;
            for member in members {
                let y = eval(member, best);
                if cheaper(y.as_ref(), winner.as_ref()) {
                    winner = y;
                }
            }
            winner
        }
        Rule::Repeat1(content)
        | Rule::Alias { content, .. }
        | Rule::Field { content, .. }
        | Rule::Prec(content) => eval(content, best),
    }
}
