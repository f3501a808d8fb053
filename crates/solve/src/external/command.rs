//! Splitting a `--solver-cmd` string into a program and its arguments, as a shell would
//! for a simple command (no shell runs it).

/// Splits a command line into words the way a POSIX shell would for a simple command, without
/// expansions (the `shlex` crate). Unquoted shell operators are an error, since there is no
/// shell to obey them.
pub(super) fn split_command(cmd: &str) -> Result<Vec<String>, String> {
    // An operator is unquoted exactly when the text before it splits cleanly (no quote or
    // backslash is left open there).
    let unquoted_operator = cmd
        .char_indices()
        .find(|&(i, c)| "|&;<>$`".contains(c) && shlex::split(&cmd[..i]).is_some());
    if let Some((_, c)) = unquoted_operator {
        return Err(format!(
            "'{c}' needs a shell, and none is used; quote it if it is meant literally"
        ));
    }
    shlex::split(cmd).ok_or_else(|| {
        // shlex only says the input ended inside something; what closes it tells what: any
        // character ends a trailing backslash, only a single quote ends a single quote.
        if shlex::split(&format!("{cmd}x")).is_some() {
            "trailing backslash"
        } else if shlex::split(&format!("{cmd}'")).is_some() {
            "unterminated single quote"
        } else {
            "unterminated double quote"
        }
        .to_string()
    })
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
