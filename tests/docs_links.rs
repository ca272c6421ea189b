//! Every link of the README and of the book resolves: each Markdown link or
//! image with a relative target names a file that exists (relative to the
//! page), and a `#anchor` names a heading of that file by its GitHub /
//! mdBook slug; every mdBook include names a file that exists. Links to
//! the web are not followed (no network), but none may point at a local
//! path. Standard library only.

use std::collections::HashSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// A link target found in a page, with its 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Link {
    line: usize,
    target: String,
}

/// A link that does not resolve: the page, the line, the target and why.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Broken {
    file: PathBuf,
    line: usize,
    target: String,
    why: String,
}

impl std::fmt::Display for Broken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: ({}) {}",
            self.file.display(),
            self.line,
            self.target,
            self.why
        )
    }
}

/// The repository root (the root package's directory).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every `.md` file under `docs/`, recursively, sorted.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    collect_markdown(&root.join("docs"), &mut files);
    files.sort();
    files
}

fn collect_markdown(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_markdown(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "md") {
            files.push(path);
        }
    }
}

/// Whether a line opens or closes a fenced code block: its fence
/// character and length.
fn fence(line: &str) -> Option<(char, usize)> {
    let trimmed = line.trim_start();
    let first = trimmed.chars().next()?;
    if first != '`' && first != '~' {
        return None;
    }
    let run = trimmed.chars().take_while(|&c| c == first).count();
    (run >= 3).then_some((first, run))
}

/// The text with fenced code blocks blanked (their lines kept empty, so
/// line numbers hold).
fn without_fences(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open: Option<(char, usize)> = None;
    for line in text.split_inclusive('\n') {
        let newline = if line.ends_with('\n') { "\n" } else { "" };
        match (open, fence(line)) {
            (None, Some(opened)) => {
                open = Some(opened);
                out.push_str(newline);
            }
            (Some((c, n)), Some((c2, n2))) if c == c2 && n2 >= n && is_bare_fence(line) => {
                open = None;
                out.push_str(newline);
            }
            (Some(_), _) => out.push_str(newline),
            (None, None) => out.push_str(line),
        }
    }
    out
}

/// A closing fence carries nothing after its fence characters.
fn is_bare_fence(line: &str) -> bool {
    let trimmed = line.trim();
    let first = trimmed.chars().next().unwrap_or(' ');
    trimmed.chars().all(|c| c == first)
}

/// The text with the content of every code span replaced by `x` (newlines
/// kept): a link inside a code span is not a link, a code span inside a
/// link's text keeps the link. A backtick run with no closing run before
/// the paragraph ends is literal.
fn without_code_spans(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = chars.clone();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let run = backtick_run(&chars, i);
        match closing_run(&chars, i + run, run) {
            Some(close) => {
                for c in &mut out[i + run..close] {
                    if *c != '\n' {
                        *c = 'x';
                    }
                }
                i = close + run;
            }
            None => i += run,
        }
    }
    out.into_iter().collect()
}

fn backtick_run(chars: &[char], at: usize) -> usize {
    chars[at..].iter().take_while(|&&c| c == '`').count()
}

/// Where the run of exactly `run` backticks closing a span starts, if it
/// comes before a blank line.
fn closing_run(chars: &[char], from: usize, run: usize) -> Option<usize> {
    let mut j = from;
    while j < chars.len() {
        if chars[j] == '\n' && chars.get(j + 1) == Some(&'\n') {
            return None;
        }
        if chars[j] == '`' {
            let n = backtick_run(chars, j);
            if n == run {
                return Some(j);
            }
            j += n;
        } else {
            j += 1;
        }
    }
    None
}

/// The 1-based line of a char index.
fn line_of(chars: &[char], at: usize) -> usize {
    1 + chars[..at].iter().filter(|&&c| c == '\n').count()
}

/// Every inline link and image target, `[text](target)` and
/// `![alt](target)`, outside code; the text may span lines.
fn links(text: &str) -> Vec<Link> {
    let plain = without_code_spans(&without_fences(text));
    let chars: Vec<char> = plain.chars().collect();
    let mut found = Vec::new();
    for (open, &c) in chars.iter().enumerate() {
        if c != '[' || (open > 0 && chars[open - 1] == '\\') {
            continue;
        }
        let Some(close) = matching(&chars, open, '[', ']') else {
            continue;
        };
        if chars.get(close + 1) != Some(&'(') {
            continue;
        }
        let Some(end) = matching(&chars, close + 1, '(', ')') else {
            continue;
        };
        let inside: String = chars[close + 2..end].iter().collect();
        if let Some(target) = link_target(&inside) {
            found.push(Link {
                line: line_of(&chars, close + 1),
                target,
            });
        }
    }
    found
}

/// The index of the bracket closing the one at `open` (nesting counted,
/// escaped brackets skipped, never across a blank line).
fn matching(chars: &[char], open: usize, left: char, right: char) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            i += 2;
            continue;
        }
        if c == '\n' && chars.get(i + 1) == Some(&'\n') {
            return None;
        }
        if c == left {
            depth += 1;
        } else if c == right {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
        i += 1;
    }
    None
}

/// The destination of a link's parentheses: `<target>` or the first word
/// (a title after it is dropped).
fn link_target(inside: &str) -> Option<String> {
    let inside = inside.trim();
    let target = match inside.strip_prefix('<') {
        Some(rest) => rest.split('>').next()?,
        None => inside.split_whitespace().next()?,
    };
    (!target.is_empty()).then(|| target.to_string())
}

/// Every `{{#include path}}` (and `#rustdoc_include`) target: the path
/// without a `:lines` or `:anchor` suffix. mdBook expands them anywhere,
/// code included, unless escaped with a backslash.
fn includes(text: &str) -> Vec<Link> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("{{#") {
            let escaped = rest[..at].ends_with('\\');
            let after = &rest[at + 3..];
            let Some(end) = after.find("}}") else { break };
            let directive = &after[..end];
            rest = &after[end + 2..];
            let mut words = directive.split_whitespace();
            let kind = words.next().unwrap_or("");
            if escaped || !matches!(kind, "include" | "rustdoc_include") {
                continue;
            }
            if let Some(path) = words.next() {
                let path = path.split(':').next().unwrap_or(path);
                found.push(Link {
                    line: index + 1,
                    target: path.to_string(),
                });
            }
        }
    }
    found
}

/// The text of every ATX heading outside code, in order.
fn headings(text: &str) -> Vec<String> {
    without_fences(text)
        .lines()
        .filter_map(|line| {
            let trimmed = line.trim_start();
            let level = trimmed.chars().take_while(|&c| c == '#').count();
            let rest = &trimmed[level..];
            if !(1..=6).contains(&level) || !(rest.is_empty() || rest.starts_with(' ')) {
                return None;
            }
            Some(rest.trim().trim_end_matches('#').trim().to_string())
        })
        .collect()
}

/// A heading's anchor as GitHub and mdBook make it: the text of its links,
/// lowercased, spaces to `-`, punctuation but `-` and `_` dropped.
fn slug(heading: &str) -> String {
    let text = link_texts(heading);
    text.chars()
        .flat_map(char::to_lowercase)
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// `[text](target)` reduced to `text`.
fn link_texts(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '['
            && let Some(close) = matching(&chars, i, '[', ']')
            && chars.get(close + 1) == Some(&'(')
            && let Some(end) = matching(&chars, close + 1, '(', ')')
        {
            out.extend(&chars[i + 1..close]);
            i = end + 1;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// The anchors of a page: its headings' slugs, a repeated slug also as
/// `slug-1`, `slug-2`, ...; the headings of the files it includes count.
fn anchors(text: &str, dir: &Path) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut all_headings = headings(text);
    for include in includes(text) {
        if let Ok(included) = fs::read_to_string(dir.join(&include.target)) {
            all_headings.extend(headings(&included));
        }
    }
    for heading in all_headings {
        let base = slug(&heading);
        let mut anchor = base.clone();
        let mut n = 0;
        while !seen.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
    }
    seen
}

/// Whether a link leaves the repository for the web or mail.
fn is_external(target: &str) -> bool {
    let lower = target.to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("mailto:")
}

/// Whether a target names a file on some machine rather than in the
/// repository: an absolute path, a home directory, a `file:` URL, a
/// Windows drive, or a web link to this machine.
fn points_at_local_path(target: &str) -> bool {
    let lower = target.to_ascii_lowercase();
    let host = lower
        .strip_prefix("http://")
        .or_else(|| lower.strip_prefix("https://"))
        .map(|rest| rest.split(['/', ':', '?', '#']).next().unwrap_or(""));
    lower.starts_with("file:")
        || lower.starts_with('/')
        || lower.starts_with('~')
        || lower.starts_with('\\')
        || (lower.as_bytes().get(1) == Some(&b':') && lower.as_bytes()[0].is_ascii_alphabetic())
        || matches!(host, Some("localhost" | "127.0.0.1" | "0.0.0.0" | "[::1]"))
}

/// `a/./b/../c` as `a/c`, for a readable message.
fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// What is wrong with one relative link of the page at `file` (whose text
/// is `text`), if anything.
fn check_link(file: &Path, text: &str, target: &str) -> Option<String> {
    if points_at_local_path(target) {
        return Some("points at a local path".into());
    }
    if is_external(target) {
        return None;
    }
    let dir = file.parent().unwrap_or(Path::new("."));
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let path = path.split('?').next().unwrap_or(path);
    let (target_file, target_text) = if path.is_empty() {
        (file.to_path_buf(), text.to_string())
    } else {
        let target_file = normalized(&dir.join(path));
        if !target_file.exists() {
            return Some(format!("no file {}", target_file.display()));
        }
        let target_text = if target_file.is_file() {
            fs::read_to_string(&target_file).unwrap_or_default()
        } else {
            String::new()
        };
        (target_file, target_text)
    };
    let anchor = anchor.filter(|a| !a.is_empty())?;
    let target_dir = target_file.parent().unwrap_or(Path::new("."));
    if anchors(&target_text, target_dir).contains(anchor) {
        None
    } else {
        Some(format!(
            "no heading with the anchor #{anchor} in {}",
            target_file.display()
        ))
    }
}

/// Every broken link, image and include of one page.
fn check_page(file: &Path, text: &str) -> Vec<Broken> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut broken = Vec::new();
    for link in links(text) {
        if let Some(why) = check_link(file, text, &link.target) {
            broken.push(Broken {
                file: file.to_path_buf(),
                line: link.line,
                target: link.target,
                why,
            });
        }
    }
    for include in includes(text) {
        let included = normalized(&dir.join(&include.target));
        if !included.is_file() {
            broken.push(Broken {
                file: file.to_path_buf(),
                line: include.line,
                target: include.target,
                why: format!("included file {} does not exist", included.display()),
            });
        }
    }
    broken
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_link_of_the_readme_and_the_book_resolves() {
    let root = root();
    let files = markdown_files(&root);
    assert!(
        files
            .iter()
            .any(|f| f.ends_with("docs/book/src/SUMMARY.md")),
        "the book's SUMMARY.md is among the checked pages: {files:?}"
    );
    let broken: Vec<String> = files
        .iter()
        .flat_map(|file| check_page(file, &read(file)))
        .map(|b| b.to_string())
        .collect();
    assert!(
        broken.is_empty(),
        "{} broken links:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

#[test]
fn no_web_link_points_at_a_local_path() {
    let root = root();
    let local: Vec<String> = markdown_files(&root)
        .iter()
        .flat_map(|file| {
            links(&read(file))
                .into_iter()
                .filter(|link| is_external(&link.target) && points_at_local_path(&link.target))
                .map(move |link| format!("{}:{}: {}", file.display(), link.line, link.target))
        })
        .collect();
    assert!(
        local.is_empty(),
        "links to this machine:\n{}",
        local.join("\n")
    );
}

#[test]
fn the_checker_names_broken_links_and_anchors() {
    let root = root();
    let page = root.join("docs/example.md");
    let text = "\
# A page

## Second heading: with `code`, punctuation & more!

[fine](../README.md) and [fine anchor](../README.md#playing), ![image](book/book.toml)
[self](#second-heading-with-code-punctuation--more) and [no such file](missing.md)
[bad anchor](../README.md#no-such-heading) [bad self anchor](#nowhere)
[wrapped
text](book/src/SUMMARY.md#summary) [web](https://example.com/x) [local web](http://localhost/x)
`[in a span](nowhere.md)`

```text
[in a fence](nowhere-either.md)
```

{{#include book/src/missing.md}} and \\{{#include escaped.md}}
";
    let broken: Vec<(usize, String)> = check_page(&page, text)
        .into_iter()
        .map(|b| (b.line, b.target))
        .collect();
    assert_eq!(
        broken,
        [
            (6, "missing.md".to_string()),
            (7, "../README.md#no-such-heading".to_string()),
            (7, "#nowhere".to_string()),
            (9, "http://localhost/x".to_string()),
            (16, "book/src/missing.md".to_string()),
        ]
    );
}

#[test]
fn slugs_follow_github_and_mdbook() {
    assert_eq!(slug("The `iron3d` command"), "the-iron3d-command");
    assert_eq!(
        slug("Control (`plugins/control`)"),
        "control-pluginscontrol"
    );
    assert_eq!(slug("`behavior_diagnostics`"), "behavior_diagnostics");
    assert_eq!(
        slug("Build times on this machine (2 cores)"),
        "build-times-on-this-machine-2-cores"
    );
    assert_eq!(slug("See [the book](docs/x.md) now"), "see-the-book-now");
    let found = anchors("# Same\n\n## Same\n", Path::new("."));
    assert!(found.contains("same") && found.contains("same-1"));
}
