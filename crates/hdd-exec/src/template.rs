//! `--exec TEMPLATE`: every test runs through a command template, run by `/bin/sh -c`,
//! whose placeholders are replaced, each shell-quoted: `{cmd}` the test with its
//! arguments (`@@` already replaced), `{dir}` the test's folder, `{file}` the
//! candidate's path, `{name}` its file name, `{id}` a number unique within the run. The
//! template's exit status is the test's: `srun -Q --exact -n1 -c1 --chdir={dir} {cmd}`
//! runs each test as a Slurm job step.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
use std::path::Path;

/// The placeholders a template may hold.
pub(crate) const PLACEHOLDERS: [&str; 5] = ["{cmd}", "{dir}", "{file}", "{name}", "{id}"];

/// What the placeholders of one test stand for.
pub(crate) struct Test<'a> {
    /// The test program and its arguments.
    pub(crate) words: &'a [OsString],
    /// The folder the test runs in.
    pub(crate) dir: &'a Path,
    /// The candidate's path.
    pub(crate) file: &'a Path,
    /// A number unique within the run.
    pub(crate) id: u64,
}

/// The shell command of `template` for `test`.
pub(crate) fn expand(template: &str, test: &Test<'_>) -> OsString {
    let cmd = join(test.words);
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.extend_from_slice(&rest.as_bytes()[..at]);
        let tail = &rest[at..];
        let value = if tail.starts_with("{cmd}") {
            Some(cmd.clone())
        } else if tail.starts_with("{dir}") {
            Some(quote(test.dir.as_os_str()))
        } else if tail.starts_with("{file}") {
            Some(quote(test.file.as_os_str()))
        } else if tail.starts_with("{name}") {
            Some(quote(test.file.file_name().unwrap_or_default()))
        } else if tail.starts_with("{id}") {
            Some(test.id.to_string().into_bytes())
        } else {
            None
        };
        match value {
            Some(value) => {
                out.extend(value);
                let len = tail.find('}').map_or(1, |end| end + 1);
                rest = &tail[len..];
            }
            None => {
                out.push(b'{');
                rest = &tail[1..];
            }
        }
    }
    out.extend_from_slice(rest.as_bytes());
    OsString::from_vec(out)
}

/// `words` as one shell command line, each quoted when it needs it (what a shell would
/// split back into the same words; lossily decoded where a word is not UTF-8): for
/// messages that show a command to run again.
pub fn shell_words<W: AsRef<OsStr>>(words: impl IntoIterator<Item = W>) -> String {
    let words: Vec<OsString> = words.into_iter().map(|w| w.as_ref().to_owned()).collect();
    String::from_utf8_lossy(&join(&words)).into_owned()
}

/// `words`, each quoted, separated by spaces.
fn join(words: &[OsString]) -> Vec<u8> {
    words
        .iter()
        .map(|w| quote(w))
        .collect::<Vec<_>>()
        .join(&b' ')
}

/// `word` as one shell word: bare when it holds only characters no shell treats
/// specially, else in single quotes (a `'` inside written `'\''`).
fn quote(word: &OsStr) -> Vec<u8> {
    let bytes = word.as_bytes();
    let plain = |b: &u8| b.is_ascii_alphanumeric() || b"@%+=:,./_-".contains(b);
    if !bytes.is_empty() && bytes.iter().all(plain) {
        return bytes.to_vec();
    }
    let mut out = vec![b'\''];
    for &b in bytes {
        if b == b'\'' {
            out.extend_from_slice(b"'\\''");
        } else {
            out.push(b);
        }
    }
    out.push(b'\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_quoted_words() {
        let words: Vec<OsString> = ["/t/test.sh", "it's", "a b", ""]
            .map(OsString::from)
            .to_vec();
        let test = Test {
            words: &words,
            dir: Path::new("/w/t 1"),
            file: Path::new("/w/t 1/in.c"),
            id: 7,
        };
        let expanded = expand("srun --chdir={dir} {cmd} # {name} {id} {file} {x} {", &test);
        assert_eq!(
            expanded,
            "srun --chdir='/w/t 1' /t/test.sh 'it'\\''s' 'a b' '' # in.c 7 '/w/t 1/in.c' {x} {"
        );
    }

    #[test]
    fn a_command_line_is_quoted_where_a_shell_would_split_it() {
        assert_eq!(
            shell_words([
                "bench",
                "--cases",
                "warn shift",
                "--tools",
                "hdd,cvise",
                "it's"
            ]),
            r"bench --cases 'warn shift' --tools hdd,cvise 'it'\''s'"
        );
    }

    #[test]
    fn the_shell_reads_back_what_was_quoted() {
        let words: Vec<OsString> = ["printf", "%s|", "it's", "a b", "$HOME", "`x`"]
            .map(OsString::from)
            .to_vec();
        let test = Test {
            words: &words,
            dir: Path::new("/"),
            file: Path::new("/f"),
            id: 0,
        };
        let out = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(expand("{cmd}", &test))
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "it's|a b|$HOME|`x`|");
    }
}
