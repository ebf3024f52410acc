//! The summary printed at the end of a run: sizes before and after, counters, and
//! what each pass did.

use std::path::Path;
use std::time::Duration;

use hdd::Reduction;

use crate::args::ReduceArgs;
use crate::checks::CHECKS;

pub(crate) fn percent(after: usize, before: usize) -> String {
    if before == 0 {
        return "-".into();
    }
    #[expect(clippy::cast_precision_loss, reason = "a percentage for display")]
    let p = after as f64 * 100.0 / before as f64;
    format!("{p:.1}%")
}

pub(crate) fn print_summary(
    args: &ReduceArgs,
    jobs: usize,
    dest: &Path,
    r: &Reduction,
    elapsed: Duration,
    what: &str,
) {
    let (b, a) = (r.before, r.after);
    eprintln_safe!("hdd: {what} {} -> {}", args.file.display(), dest.display());
    eprintln_safe!(
        "  bytes  {:>9} -> {:<9} ({})",
        b.bytes,
        a.bytes,
        percent(a.bytes, b.bytes)
    );
    eprintln_safe!(
        "  tokens {:>9} -> {:<9} ({})",
        b.tokens,
        a.tokens,
        percent(a.tokens, b.tokens)
    );
    eprintln_safe!(
        "  lines  {:>9} -> {:<9} ({})",
        b.lines,
        a.lines,
        percent(a.lines, b.lines)
    );
    let s = &r.stats;
    let earlier = if s.earlier_verdicts > 0 {
        format!(" (of {} verdicts from earlier runs)", s.earlier_verdicts)
    } else {
        String::new()
    };
    eprintln_safe!(
        "  tests run {}, cache hits {}{earlier}, invalid candidates filtered {}, accepted {}, \
         time {:.1} s",
        s.tests + CHECKS,
        s.cache_hits,
        s.invalid,
        s.accepted,
        elapsed.as_secs_f64()
    );
    eprintln_safe!(
        "  jobs {jobs}{}, merged successes {}, wasted tests {}, predicted failures {}",
        if args.deterministic {
            " (deterministic)"
        } else {
            ""
        },
        s.merged,
        s.wasted,
        s.predicted
    );
    if r.input_errors > 0 {
        eprintln_safe!("  the input had {} syntax error nodes", r.input_errors);
    }
    let w = s
        .passes
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        .max(10);
    eprintln_safe!(
        "  {:<w$} {:>7} {:>9} {:>12} {:>9} {:>13}",
        "pass",
        "tests",
        "accepted",
        "bytes saved",
        "time",
        "stopped early"
    );
    for p in &s.passes {
        eprintln_safe!(
            "  {:<w$} {:>7} {:>9} {:>12} {:>8.1}s {:>13}",
            p.name,
            p.tests,
            p.accepted,
            p.bytes_saved,
            p.time.as_secs_f64(),
            p.stopped_early
        );
    }
    eprintln_safe!(
        "  rounds {} (stopped early = the pass's last tests saved too little)",
        s.rounds
    );
}
