//! `hdd bisect`: the first bad value between a good one and a bad one, each probe a run
//! of the user's command with the value in place of `{}` (`hdd_search::bisect` does the
//! search, `hdd_exec`'s executor the runs: process groups, timeouts, Ctrl-C).

use std::time::Instant;

use anyhow::{Context as _, anyhow};
use hdd_exec::{LocalExecutor, Status, TestCommand, stop_on_signals};
use hdd_search::{Answer, bisect};
use serde_json::json;

use crate::args::BisectArgs;
use crate::exit::{Failure, NOT_INTERESTING};
use crate::setup::{command_here, ran, timeout};

/// The values bisected: index 0 is the good end, the last the bad one.
enum Values {
    Integers { good: i64, bad: i64 },
    Lines(Vec<String>),
}

impl Values {
    fn len(&self) -> u64 {
        match self {
            Values::Integers { good, bad } => {
                u64::try_from(i128::from(*bad).abs_diff(i128::from(*good)) + 1).unwrap_or(u64::MAX)
            }
            Values::Lines(lines) => lines.len() as u64,
        }
    }

    fn get(&self, index: u64) -> String {
        match self {
            Values::Integers { good, bad } => {
                let step = if bad > good { 1 } else { -1 };
                (i128::from(*good) + step * i128::from(index)).to_string()
            }
            Values::Lines(lines) => {
                lines[usize::try_from(index).expect("an index of the list")].clone()
            }
        }
    }
}

pub(crate) fn run(args: &BisectArgs) -> Result<(), Failure> {
    let started = Instant::now();
    let values = values(args)?;
    if args.jobs == 0 {
        return Err(Failure::usage(anyhow!("-j must be at least 1")));
    }
    let command = command(args)?;
    let executor = LocalExecutor::new(command, args.jobs).map_err(Failure::failed)?;
    stop_on_signals()
        .context("listening for Ctrl-C")
        .map_err(Failure::failed)?;
    let mut tests = 0usize;
    let mut probe = |indices: &[u64]| -> Result<Vec<Answer>, Failure> {
        let texts: Vec<String> = indices.iter().map(|&i| values.get(i)).collect();
        let refs: Vec<&[u8]> = texts.iter().map(|t| t.as_bytes()).collect();
        let outcomes = executor.run_all(&refs);
        tests += texts.len();
        let mut answers = Vec::new();
        for ((value, outcome), &index) in texts.iter().zip(outcomes).zip(indices) {
            let outcome = ran(outcome, "probe", &format!("probing {value}"))?;
            let answer = answer(outcome.status).ok_or_else(|| {
                Failure::failed(anyhow!(
                    "probing {value}: the command {}; a probe must exit 0 (good), 1-127 \
                     (bad) or 125 (skip){}",
                    outcome.status,
                    tail(&outcome.stderr_tail)
                ))
            })?;
            report_probe(args, (index, values.len()), value, answer);
            answers.push(answer);
        }
        Ok(answers)
    };
    let len = values.len();
    if args.check_ends {
        let ends = probe(&[0, len - 1])?;
        if ends != [Answer::Good, Answer::Bad] {
            return Err(Failure {
                error: anyhow!(
                    "the ends do not disagree: {} is {} and {} is {}; bisect needs a good \
                     end and a bad one",
                    values.get(0),
                    word(ends[0]),
                    values.get(len - 1),
                    word(ends[1])
                ),
                code: NOT_INTERESTING,
            });
        }
    }
    let found = bisect(len, args.jobs, &mut probe)?;
    let skipped: Vec<String> = found
        .skipped_between
        .iter()
        .map(|&i| values.get(i))
        .collect();
    let (first_bad, last_good) = (values.get(found.first_bad), values.get(found.last_good));
    if args.json {
        println_safe!(
            "{}",
            json!({
                "event": "done",
                "first_bad": first_bad,
                "last_good": last_good,
                "skipped_between": skipped,
                "tests": tests,
                "rounds": found.rounds,
                "seconds": started.elapsed().as_secs_f64(),
            })
        );
        return Ok(());
    }
    println_safe!("first bad: {first_bad}");
    println_safe!("last good: {last_good}");
    if !skipped.is_empty() {
        println_safe!(
            "skipped between them (any may be the first bad): {}",
            skipped.join(" ")
        );
    }
    if !args.quiet {
        eprintln_safe!(
            "hdd: {tests} probes in {} rounds, {:.1} s",
            found.rounds,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// The values of the command line: the integers between the ends, or the list's lines.
fn values(args: &BisectArgs) -> Result<Values, Failure> {
    let values = match (&args.list, args.good, args.bad) {
        (Some(path), _, _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))
                .map_err(Failure::usage)?;
            let lines: Vec<String> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_owned)
                .collect();
            if lines.len() < 2 {
                return Err(Failure::usage(anyhow!(
                    "{} has {} value(s): bisect needs a good one (the first line) and a bad \
                     one (the last)",
                    path.display(),
                    lines.len()
                )));
            }
            Values::Lines(lines)
        }
        (None, Some(good), Some(bad)) => {
            if good == bad {
                return Err(Failure::usage(anyhow!(
                    "--good and --bad are both {good}: a value cannot be both"
                )));
            }
            if good == i64::MIN && bad == i64::MAX || good == i64::MAX && bad == i64::MIN {
                return Err(Failure::usage(anyhow!(
                    "--good and --bad span every 64-bit integer: narrow them by one"
                )));
            }
            Values::Integers { good, bad }
        }
        _ => {
            return Err(Failure::usage(anyhow!(
                "give --good and --bad, or --list FILE"
            )));
        }
    };
    Ok(values)
}

/// The user's command, run in the current folder with `{}` replaced.
fn command(args: &BisectArgs) -> Result<TestCommand, Failure> {
    let placeholder = TestCommand::TEXT_PLACEHOLDER;
    if !args
        .command
        .iter()
        .any(|a| a.to_string_lossy().contains(placeholder))
    {
        return Err(Failure::usage(anyhow!(
            "the command has no {placeholder}: every probe would run the same thing; put \
             {placeholder} where the value goes (`-- ./test.sh {placeholder}`)"
        )));
    }
    let mut command = command_here(&args.command, "value", timeout(args.timeout)?)?;
    command.text_in_args = true;
    Ok(command)
}

/// What a probe's ending says, `None` for an ending that is none of good, bad, skip.
fn answer(status: Status) -> Option<Answer> {
    match status {
        Status::Exited(0) => Some(Answer::Good),
        Status::Exited(125) => Some(Answer::Skip),
        Status::Exited(1..=127) => Some(Answer::Bad),
        _ => None,
    }
}

fn word(answer: Answer) -> &'static str {
    match answer {
        Answer::Good => "good",
        Answer::Bad => "bad",
        Answer::Skip => "skipped (exit code 125)",
    }
}

/// One probe's line: its value, where the value is among all (`index` of `len`, from 0),
/// and its answer.
fn report_probe(args: &BisectArgs, (index, len): (u64, u64), value: &str, answer: Answer) {
    if args.json {
        println_safe!(
            "{}",
            json!({"event": "probe", "value": value, "index": index, "answer": word(answer)})
        );
    } else if !args.quiet {
        eprintln_safe!("hdd: [{}/{len}] {value}: {}", index + 1, word(answer));
    }
}

/// The end of a probe's stderr, for an error message.
fn tail(stderr: &str) -> String {
    if stderr.trim().is_empty() {
        String::new()
    } else {
        format!("; its stderr ended with:\n{}", stderr.trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_map_as_git_bisect_run_maps_them() {
        assert_eq!(answer(Status::Exited(0)), Some(Answer::Good));
        assert_eq!(answer(Status::Exited(1)), Some(Answer::Bad));
        assert_eq!(answer(Status::Exited(127)), Some(Answer::Bad));
        assert_eq!(answer(Status::Exited(125)), Some(Answer::Skip));
        assert_eq!(answer(Status::Exited(128)), None);
        assert_eq!(answer(Status::Signaled(9)), None);
        assert_eq!(answer(Status::TimedOut), None);
    }

    #[test]
    fn integer_ends_run_either_way() {
        let up = Values::Integers { good: -2, bad: 3 };
        assert_eq!(up.len(), 6);
        assert_eq!((up.get(0), up.get(5)), ("-2".into(), "3".into()));
        let down = Values::Integers { good: 10, bad: 7 };
        assert_eq!(down.len(), 4);
        assert_eq!(down.get(3), "7");
        let wide = Values::Integers {
            good: i64::MIN + 1,
            bad: i64::MAX,
        };
        assert_eq!(wide.len(), u64::MAX);
        assert_eq!(wide.get(u64::MAX - 1), i64::MAX.to_string());
    }
}
