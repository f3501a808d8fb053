//! Splitting a `--solver-cmd` string into a program and its arguments, as a shell would
//! for a simple command (no shell runs it).

/// Splits a command line into words the way a POSIX shell would for a simple command, without
/// expansions. Unquoted shell operators are an error, since there is no shell to obey them.
pub(super) fn split_command(cmd: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Distinguishes an empty quoted word ('') from no word at all.
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("unterminated single quote".to_string()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        // Inside double quotes a backslash only escapes these, as in sh.
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("unterminated double quote".to_string()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("unterminated double quote".to_string()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => {
                    in_word = true;
                    word.push(c);
                }
                None => return Err("trailing backslash".to_string()),
            },
            '|' | '&' | ';' | '<' | '>' | '$' | '`' => {
                return Err(format!(
                    "'{c}' needs a shell, and none is used; quote it if it is meant literally"
                ))
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn external_split_command() {
        let ok = |s: &str| split_command(s).unwrap();
        assert_eq!(ok("cadical -q"), ["cadical", "-q"]);
        assert_eq!(ok("  a   b\tc  "), ["a", "b", "c"]);
        assert_eq!(ok("/opt/foo --bar 'x y'"), ["/opt/foo", "--bar", "x y"]);
        assert_eq!(ok(r#"a "x \"y\" \\ \n $z""#), ["a", r#"x "y" \ \n $z"#]);
        assert_eq!(ok(r"a x\ y \'q"), ["a", "x y", "'q"]);
        assert_eq!(ok("a '' \"\""), ["a", "", ""]);
        assert_eq!(ok("a--x='1 2'\"3\""), ["a--x=1 23"]);
        assert_eq!(ok("a '|' \"> ;\""), ["a", "|", "> ;"]);
        assert_eq!(ok("   "), Vec::<String>::new());
        for bad in [
            "a 'b", "a \"b", "a b\\", "a | b", "a > out", "a; b", "a &", "a $X", "a `b`",
        ] {
            assert!(split_command(bad).is_err(), "{bad} should be rejected");
        }
    }
}
