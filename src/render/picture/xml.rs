//! Text and numbers as SVG and HTML carry them: escaped, and written the same way every
//! time, so that one position always gives the same bytes.

/// `text` with the characters markup reads (`& < > " '`) escaped, and the characters
/// XML cannot hold at all (most control characters) replaced by `�`: text from a game
/// file or a transcript can break neither the document nor its attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(ch),
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate to one decimal, without a trailing `.0` (`24`, `12.5`, `-3.2`): what a
/// browser's script prints for the same number, so pictures drawn by the replay page's
/// script match those drawn here.
pub fn num(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    if tenths % 10 == 0 {
        (tenths / 10).to_string()
    } else {
        let sign = if tenths < 0 { "-" } else { "" };
        format!("{sign}{}.{}", tenths.abs() / 10, tenths.abs() % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_a_script_prints_them() {
        assert_eq!(num(24.0), "24");
        assert_eq!(num(-0.01), "0");
        assert_eq!(num(12.46), "12.5");
        assert_eq!(num(-3.25), "-3.3");
        assert_eq!(num(-0.4), "-0.4");
    }

    #[test]
    fn markup_and_control_characters_are_escaped() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>\u{1}"),
            "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;\u{fffd}"
        );
    }
}
