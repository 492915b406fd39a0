//! Bot specs: the strings that name a bot and its budget everywhere a bot is chosen
//! (`random`, `greedy`, `mcts:iters=2000`, `mcts:ms=1000,c=1.4`, `alphabeta:depth=4`).
//!
//! A spec is parsed once into a name and options; each bot takes the options it knows and
//! any left over is an error that lists the options that exist.

/// A parsed spec: the bot's name and its `key=value` options, in the order written.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    pub name: String,
    options: Vec<(String, String)>,
}

impl Spec {
    /// Parses `NAME` or `NAME:KEY=VALUE,KEY=VALUE`.
    pub fn parse(text: &str) -> Result<Spec, String> {
        let text = text.trim();
        let (name, rest) = text.split_once(':').unwrap_or((text, ""));
        let name = name.trim().to_lowercase();
        if name.is_empty() {
            return Err(format!("empty bot name in `{text}`"));
        }
        let mut options = Vec::new();
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                format!("bot option `{part}` in `{text}` is not KEY=VALUE (e.g. `mcts:iters=2000`)")
            })?;
            options.push((key.trim().to_lowercase(), value.trim().to_string()));
        }
        Ok(Spec { name, options })
    }

    /// Takes a numeric option, if given.
    pub fn take<T: std::str::FromStr>(&mut self, key: &str) -> Result<Option<T>, String> {
        let Some(i) = self.options.iter().position(|(k, _)| k == key) else {
            return Ok(None);
        };
        let (_, value) = self.options.remove(i);
        value.parse().map(Some).map_err(|_| {
            format!(
                "bot option `{key}={value}` of `{}`: `{value}` is not a valid value",
                self.name
            )
        })
    }

    /// Takes a numeric option, if given, that must lie in `range`: a bot's budget is
    /// bounded (an hour, ten million iterations), so no spec can make a bot think or grow
    /// for ever, and a value out of range is refused rather than quietly changed.
    pub fn take_in<T>(
        &mut self,
        key: &str,
        range: std::ops::RangeInclusive<T>,
    ) -> Result<Option<T>, String>
    where
        T: std::str::FromStr + PartialOrd + std::fmt::Display,
    {
        match self.take::<T>(key)? {
            Some(v) if !range.contains(&v) => Err(format!(
                "bot option `{key}={v}` of `{}`: it must be from {} to {}",
                self.name,
                range.start(),
                range.end()
            )),
            v => Ok(v),
        }
    }

    /// Fails if options are left that the bot did not take.
    pub fn finish(&self, known: &[&str]) -> Result<(), String> {
        match self.options.first() {
            None => Ok(()),
            Some((key, _)) if known.is_empty() => Err(format!(
                "bot `{}` takes no options (got `{key}`)",
                self.name
            )),
            Some((key, _)) => Err(format!(
                "unknown option `{key}` for bot `{}`; its options: {}",
                self.name,
                known.join(", ")
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Spec;

    #[test]
    fn specs_parse_names_and_options() {
        let mut s = Spec::parse(" MCTS:iters=2000, c=1.4 ").unwrap();
        assert_eq!(s.name, "mcts");
        assert_eq!(s.take::<u64>("iters").unwrap(), Some(2000));
        assert_eq!(s.take::<f64>("c").unwrap(), Some(1.4));
        assert_eq!(s.take::<u64>("ms").unwrap(), None);
        assert!(s.finish(&["iters", "ms", "c"]).is_ok());
        let mut bad = Spec::parse("mcts:iters=lots").unwrap();
        assert!(
            bad.take::<u64>("iters")
                .unwrap_err()
                .contains("not a valid value")
        );
        assert!(Spec::parse("mcts:iters").unwrap_err().contains("KEY=VALUE"));
        let left = Spec::parse("mcts:depth=3").unwrap();
        assert!(
            left.finish(&["iters"])
                .unwrap_err()
                .contains("its options: iters")
        );
    }
}
