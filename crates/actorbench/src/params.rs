//! A benchmark's parameter set: `NAME=VALUE` pairs with non-negative integer values.
//!
//! The pairs keep the order they were given in (the suite file's, or the contract's after
//! [`Params::in_order_of`]), so `actors=503 hops=1000000` always renders the same way; that
//! rendering is the canonical key under which runs are stored and grouped.

use std::fmt;

/// An ordered set of `NAME=VALUE` parameters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Params(Vec<(String, u64)>);

impl Params {
    /// An empty parameter set.
    pub fn new() -> Self {
        Params(Vec::new())
    }

    /// Parses words like `hops=5`; a repeated name, a missing `=` or a value that is not a
    /// non-negative integer is an error that names the word.
    pub fn parse_words<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<Self, String> {
        let mut out = Params::new();
        for word in words {
            let (name, value) = parse_pair(word)?;
            if out.get(&name).is_some() {
                return Err(format!("parameter {name}={value} given twice"));
            }
            out.0.push((name, value));
        }
        Ok(out)
    }

    /// The value of `name`, if set.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    /// Sets `name` to `value`, replacing an earlier value in place or appending.
    pub fn set(&mut self, name: &str, value: u64) {
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name.to_string(), value)),
        }
    }

    /// The pairs in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.0.iter().map(|(n, v)| (n.as_str(), *v))
    }

    /// Whether there are no parameters.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The same set, reordered to follow `names`; names not listed keep their order at the end.
    pub fn in_order_of(&self, names: &[&str]) -> Params {
        let mut pairs = self.0.clone();
        pairs.sort_by_key(|(n, _)| names.iter().position(|m| m == n).unwrap_or(usize::MAX));
        Params(pairs)
    }

    /// The words passed to a program: `["actors=503", "hops=1000000"]`.
    pub fn words(&self) -> Vec<String> {
        self.0.iter().map(|(n, v)| format!("{n}={v}")).collect()
    }
}

/// Parses one `NAME=VALUE` word.
pub fn parse_pair(word: &str) -> Result<(String, u64), String> {
    let Some((name, value)) = word.split_once('=') else {
        return Err(format!("argument '{word}' is not NAME=VALUE"));
    };
    if name.is_empty() {
        return Err(format!("argument '{word}' has no parameter name"));
    }
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{name}={value} is not a non-negative integer"));
    }
    let value = value
        .parse::<u64>()
        .map_err(|_| format!("{name}={value} is too large"))?;
    Ok((name.to_string(), value))
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words().join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_renders_and_rejects() {
        let p = Params::parse_words(["hops=5", "actors=3"]).unwrap();
        assert_eq!(
            p.in_order_of(&["actors", "hops"]).to_string(),
            "actors=3 hops=5"
        );
        assert!(Params::parse_words(["hops"]).is_err());
        assert!(
            Params::parse_words(["hops=abc"])
                .unwrap_err()
                .contains("hops=abc")
        );
        assert!(Params::parse_words(["hops=-1"]).is_err());
        assert!(
            Params::parse_words(["hops=1", "hops=2"])
                .unwrap_err()
                .contains("twice")
        );
    }
}
