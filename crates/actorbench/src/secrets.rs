//! Credentials never stored or shown: the redaction every command line and database name
//! goes through before the store, the terminal, the report or an export sees it.
//!
//! Two forms carry a password on a command line: a URL's user information
//! (`postgres://user:PASSWORD@host/db`, also `?password=PASSWORD` in its query) and a
//! libpq key/value connection string (`host=h password=PASSWORD`, the value possibly
//! quoted). Both are replaced by `***`, the user name and everything else kept. The
//! password itself can come from `PGPASSWORD` or a `.pgpass` file instead (see
//! [`crate::pgpass`]), so it need never be typed.

use std::sync::LazyLock;

use regex::Regex;

/// `scheme://user:PASSWORD@`: the password is everything between the first `:` of the
/// user information and the last `@` before the host.
static URL_PASSWORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)([a-z][a-z0-9+.-]*://[^:/@\s?#]*:)[^\s/?#]*@").expect("a valid pattern")
});

/// `password=VALUE` as a key/value pair or a URL query parameter; the value may be
/// single-quoted (with `\'` inside) or run to the next space, `&` or quote.
static KEY_PASSWORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&'"]*)"#).expect("a valid pattern")
});

/// `text` with every password in it replaced by `***`.
pub fn redact(text: &str) -> String {
    let once = URL_PASSWORD.replace_all(text, "${1}***@");
    KEY_PASSWORD.replace_all(&once, "${1}***").into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hides_passwords_in_urls_and_conninfo() {
        for (given, shown) in [
            (
                "postgres://actorbench:s3cretXY@db.example:5432/postgres",
                "postgres://actorbench:***@db.example:5432/postgres",
            ),
            (
                "--db=postgresql://u:p@ss:w@h/db?sslmode=off",
                "--db=postgresql://u:***@h/db?sslmode=off",
            ),
            (
                "postgres://u@h/db?password=s3cret&sslmode=off",
                "postgres://u@h/db?password=***&sslmode=off",
            ),
            (
                "host=h user=u password=s3cret dbname=d",
                "host=h user=u password=*** dbname=d",
            ),
            (
                "host=h PASSWORD = 'two words\\' x' dbname=d",
                "host=h PASSWORD = *** dbname=d",
            ),
            ("postgres://u@h/db", "postgres://u@h/db"),
            ("results/actorbench.sqlite", "results/actorbench.sqlite"),
        ] {
            assert_eq!(redact(given), shown, "{given}");
        }
    }
}
