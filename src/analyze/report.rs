//! An analysis as text (a table, one column per variant, a `*` after a value that differs
//! significantly from the first column's) and as JSON (every number of the table, and
//! the tests behind the marks).

use super::Analysis;
use super::metrics::Metrics;
use super::stats::{percent, percent_bare, short};

impl Analysis {
    /// The JSON of the analysis, pretty-printed, with a final newline.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("an analysis is plain data") + "\n"
    }

    /// The table: a heading, then a row per metric and a column per variant.
    pub fn table(&self) -> String {
        let mut rows: Vec<(String, Vec<String>)> = Vec::new();
        let cols = &self.columns;
        let mark = |c: &Metrics, metric: &str, text: String| {
            if self.significant(&c.label, metric) {
                format!("{text} *")
            } else {
                text
            }
        };
        let mut row = |label: &str, f: &dyn Fn(&Metrics) -> String| {
            rows.push((label.to_string(), cols.iter().map(f).collect()));
        };
        row("", &|c| c.label.clone());
        row("games", &|c| c.games.to_string());
        let first = cols
            .first()
            .and_then(|c| c.seats.first())
            .map_or(String::new(), |s| s.seat.clone());
        row(&format!("first player ({first}) score"), &|c| {
            mark(c, "first_player", c.first_player.text())
        });
        row("wins by seat", &|c| {
            (c.seats.iter().map(|s| s.wins.to_string()))
                .collect::<Vec<_>>()
                .join(" / ")
        });
        row("draws", &|c| mark(c, "draws", c.draws.text()));
        row("decisive", &|c| mark(c, "decisive", c.decisive.text()));
        row("ended by the ply cap", &|c| c.capped.to_string());
        row("length (plies)", &|c| mark(c, "length", c.length.text()));
        row("length sd, median, range", &|c| {
            format!(
                "{}, {}, {}-{}",
                short(c.length.sd),
                c.length_median,
                c.length_min,
                c.length_max
            )
        });
        row("branching (legal plies)", &|c| {
            mark(c, "branching", c.branching.text())
        });
        row("branching at ply 1", &|c| {
            c.branching_by_ply
                .first()
                .map_or("-".into(), |b| short(b.mean))
        });
        row("forced plies", &|c| mark(c, "forced", c.forced.text()));
        row("quiet plies (material kept)", &|c| {
            mark(c, "quiet", c.quiet.text())
        });
        row("longest quiet run", &|c| c.longest_quiet.text());
        row("repeated positions a game", &|c| {
            mark(c, "repeats", c.repeats.text())
        });
        row("games with a repetition", &|c| {
            percent(c.repeating_games.rate)
        });
        if cols.iter().any(|c| c.lead_changes.is_some()) {
            row("lead changes a game", &|c| {
                c.lead_changes
                    .as_ref()
                    .map_or("-".into(), |m| mark(c, "lead_changes", m.text()))
            });
            row("drama (loser ahead)", &|c| {
                c.drama.as_ref().map_or("-".into(), |m| {
                    let text = format!(
                        "{} ({}-{})",
                        percent(m.mean),
                        percent_bare(m.low),
                        percent_bare(m.high)
                    );
                    mark(c, "drama", text)
                })
            });
        }
        if let Some(ladder) = cols.iter().find_map(|c| c.skill.as_ref()) {
            for (i, rung) in ladder.rungs.iter().enumerate() {
                row(
                    &format!("skill: {} vs {}", rung.stronger, rung.weaker),
                    &|c| {
                        c.skill
                            .as_ref()
                            .and_then(|s| s.rungs.get(i))
                            .map_or("-".into(), |r| r.score.text())
                    },
                );
            }
            row("skill depth (rungs won)", &|c| {
                c.skill
                    .as_ref()
                    .map_or("-".into(), |s| format!("{} of {}", s.depth, s.rungs.len()))
            });
        }
        for (kind, name, title) in rule_names(cols) {
            row(
                &title,
                &|c| match c.coverage.iter().find(|u| u.kind == kind && u.name == name) {
                    None => "-".into(),
                    Some(u) if u.count == 0 => "DEAD".into(),
                    Some(u) if kind == "end" || kind == "stuck" => {
                        format!("{} games", u.count)
                    }
                    Some(u) => per_game(u.count, c.games),
                },
            );
        }
        for kind in piece_names(cols) {
            row(&format!("{kind}: moved/placed/captured/removed"), &|c| {
                c.pieces
                    .iter()
                    .find(|p| p.kind == kind)
                    .map_or("-".into(), |p| {
                        let g = c.games.max(1) as f64;
                        [p.moved, p.placed, p.captured, p.removed]
                            .iter()
                            .map(|&n| short(n as f64 / g))
                            .collect::<Vec<_>>()
                            .join("/")
                    })
            });
        }
        let mut out = format!(
            "{}: bots {}, seed {}\n",
            self.game,
            self.bots.join(" against "),
            self.seed
        );
        let label_width = rows
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        let widths: Vec<usize> = (0..cols.len())
            .map(|i| {
                rows.iter()
                    .map(|(_, v)| v[i].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for (label, values) in &rows {
            let mut line = format!("{label:<label_width$}");
            for (v, w) in values.iter().zip(&widths) {
                line.push_str(&format!("  {v:<w$}"));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        for c in cols {
            let dead = if c.dead.is_empty() {
                "none".to_string()
            } else {
                c.dead.join("; ")
            };
            out.push_str(&format!("dead rules ({}): {dead}\n", c.label));
            if !c.unused_pieces.is_empty() {
                out.push_str(&format!(
                    "unused pieces ({}): {}\n",
                    c.label,
                    c.unused_pieces.join(", ")
                ));
            }
        }
        if cols.len() > 1 {
            out.push_str(
                "* differs from the first column (p < 0.05: two-proportion test for shares, \
                 Welch's for means)\n",
            );
        }
        out
    }
}

/// The rules of every column, in the order they first appear: variants of one file share
/// their rows, an edited copy's new rule gets its own.
fn rule_names(cols: &[Metrics]) -> Vec<(&'static str, String, String)> {
    let mut out: Vec<(&'static str, String, String)> = Vec::new();
    for u in cols.iter().flat_map(|c| &c.coverage) {
        if !out.iter().any(|(k, n, _)| *k == u.kind && *n == u.name) {
            out.push((u.kind, u.name.clone(), u.title()));
        }
    }
    out
}

/// The piece kinds of every column, in the order they first appear.
fn piece_names(cols: &[Metrics]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in cols.iter().flat_map(|c| &c.pieces) {
        if !out.contains(&p.kind) {
            out.push(p.kind.clone());
        }
    }
    out
}

/// How often something happened a game: `21.3 a game`, or for what happened in fewer
/// than one game in ten, the count itself (`3 in 200 games`), which a rounded rate would
/// show as 0.0, as if it never had.
fn per_game(count: u64, games: u64) -> String {
    let rate = count as f64 / games.max(1) as f64;
    if rate >= 0.1 {
        format!("{} a game", short(rate))
    } else {
        format!("{count} in {games} games")
    }
}
