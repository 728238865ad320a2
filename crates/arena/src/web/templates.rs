//! The pages' HTML, as maud templates over the read models of [`crate::views`]: every
//! text (team names, labels, logs, check reports) is escaped by maud; addresses built from
//! names are percent-encoded. The pages work without JavaScript; the site's one script
//! (`/live.js`, [`super::live`]) only follows matches in play and keeps tables current, and
//! the Content-Security-Policy allows no other (the replay viewer, in its frame, has its own).

use maud::{DOCTYPE, Markup, PreEscaped, html};
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;

use super::plot;
use crate::store::{MatchState, VersionId};
use crate::views::{
    Leaderboard, MatchPage, MatchRow, OrganiserPage, SubmissionPage, TeamPage, VersionRow, Viewer,
};

/// What the layout needs of the request: who is looking and the session's CSRF token (for
/// the logout button).
pub struct Frame<'a> {
    pub viewer: &'a Viewer,
    pub csrf: Option<&'a str>,
    /// The contest's closing time, for the banner (`super::finals::banner`).
    pub closing: Option<i64>,
}

/// A team's page address.
pub fn team_href(name: &str) -> String {
    format!("/teams/{}", utf8_percent_encode(name, NON_ALPHANUMERIC))
}

/// A time as the database stores it (Unix ms), in UTC.
pub fn time(ms: i64) -> String {
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms.max(0) as u64);
    humantime::format_rfc3339_seconds(t)
        .to_string()
        .replace('T', " ")
        .replace('Z', " UTC")
}

fn opt_time(ms: Option<i64>) -> String {
    ms.map(time).unwrap_or_else(|| "-".into())
}

/// A team page's title: "Team NAME", or the name alone when it says "team" already ("Team
/// Alpha", "team-rocket"), never "Team Team Alpha".
pub fn team_title(name: &str) -> String {
    let first = name
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .unwrap_or("");
    if first.eq_ignore_ascii_case("team") {
        name.to_string()
    } else {
        format!("Team {name}")
    }
}

/// A value of a table's cell that may be long (a label, a team's name): on one line, cut
/// with an ellipsis past the cell's width, the whole in its tooltip.
pub fn clip(text: &str) -> Markup {
    html! { span.clip title=(text) { (text) } }
}

/// A table that may be wider than the page: it scrolls sideways in its frame rather than
/// break a word of a cell.
pub fn wide(table: Markup) -> Markup {
    html! { div.wide { (table) } }
}

pub fn layout(frame: &Frame, title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · rollarena arena" }
                link rel="stylesheet" href="/style.css";
                // No favicon request (a 404 in every browser's console).
                link rel="icon" href="data:,";
                script src="/live.js" defer {}
            }
            body {
                nav {
                    a href="/" { "Leaderboard" }
                    a href="/matches" { "Matches" }
                    @match frame.viewer {
                        Viewer::Team { name, .. } => {
                            a href=(team_href(name)) { "My team" }
                            a href="/submit" { "Submit" }
                        }
                        Viewer::Organiser => {
                            a href="/organiser" { "Organiser" }
                        }
                        Viewer::Public => {}
                    }
                    span.who {
                        @match frame.viewer {
                            Viewer::Public => { a href="/login" { "Log in" } }
                            Viewer::Team { name, .. } => {
                                @if team_title(name) != *name { "Team " }
                                b { (name) }
                            }
                            Viewer::Organiser => { "Organiser" }
                        }
                        @if let Some(csrf) = frame.csrf {
                            form.inline method="post" action="/logout" {
                                input type="hidden" name="csrf" value=(csrf);
                                button type="submit" { "Log out" }
                            }
                        }
                    }
                }
                (super::finals::banner(frame.closing))
                main {
                    h1 { (title) }
                    (body)
                }
            }
        }
    }
}

fn signed(v: f64) -> String {
    format!("{v:+.2}")
}

pub fn leaderboard(lb: &Leaderboard) -> Markup {
    html! {
        @if lb.paused {
            p.notice { "The matchmaker is paused by the organiser: no new matches start." }
        }
        @if lb.at_rest_since.is_some() && !lb.paused {
            p.notice #at-rest {
                "The ladder is at rest: every rating is settled and no version is placing, so no \
                 match would teach anything. A new version, a new team or the organiser wakes it."
            }
        }
        p.muted { span #matches-count { (lb.matches) } " finished matches. Ranked by the conservative rating μ - 3σ." }
        (wide(html! { table #leaderboard {
            thead { tr {
                th.num { "Rank" } th { "Team" } th { "Version" } th.num { "μ ± σ" }
                th.num { "Rating (μ - 3σ)" } th.num { "Matches" } th.num { "Trend" }
            } }
            tbody {
                @for row in &lb.rows {
                    tr {
                        td.num { (row.rank) }
                        td {
                            a.clip href=(team_href(&row.team)) title=(row.team) { (row.team) }
                            @if row.builtin { " " span.badge { "built-in" } }
                        }
                        td {
                            (clip(&row.version_label)) " " span.muted { "#" (row.version_id) }
                            @if row.pinned { " " span.badge.pinned { "pinned" } }
                        }
                        td.num { (format!("{:.2} ± {:.2}", row.mu, row.sigma)) }
                        td.num { b { (format!("{:.2}", row.conservative)) } }
                        td.num { (row.matches) }
                        td.num {
                            @match row.trend {
                                Some(t) if t > 0.005 => span.up { "▲ " (signed(t)) },
                                Some(t) if t < -0.005 => span.down { "▼ " (signed(t)) },
                                Some(t) => span.muted { (signed(t)) },
                                None => span.muted { "new" },
                            }
                        }
                    }
                }
            }
            (placing_rows(lb))
        } }))
        @if lb.rows.is_empty() && lb.placing.is_empty() {
            p.muted { "No version has passed its check yet." }
        }
        @if !lb.unranked.is_empty() {
            h2 { "Not ranked yet" }
            p.muted { "Teams without a version that passed its check." }
            ul {
                @for name in &lb.unranked {
                    li { a href=(team_href(name)) { (name) } }
                }
            }
        }
        (disabled_teams(&lb.disabled))
    }
}

/// The disabled teams, under the leaderboard: marked, not vanished.
fn disabled_teams(disabled: &[crate::views::DisabledRow]) -> Markup {
    html! {
        @if !disabled.is_empty() {
            h2 #disabled { "Disabled by the organiser" }
            p.muted { "These teams play no matches and are not ranked; their ratings are as they left them." }
            (wide(html! { table #disabled-teams {
                thead { tr { th { "Team" } th { "Version" } th.num { "Rating (μ - 3σ)" } th.num { "Matches" } } }
                tbody {
                    @for d in disabled {
                        tr {
                            td {
                                a.clip href=(team_href(&d.team)) title=(d.team) { (d.team) }
                                " " span.badge.failed { "disabled" }
                            }
                            @match &d.version {
                                Some(v) => {
                                    td { (clip(&v.label)) " " span.muted { "#" (v.id) } }
                                    td.num { (format!("{:.2}", v.conservative)) }
                                    td.num { (v.matches) }
                                }
                                None => { td.muted { "none ready" } td.num { "-" } td.num { "-" } }
                            }
                        }
                    }
                }
            } }))
        }
    }
}

/// The versions still placing, apart under the ranked ones (a second body of the
/// leaderboard's table, which live.js redraws too): unranked, "placing: 3 of 10".
fn placing_rows(lb: &Leaderboard) -> Markup {
    html! {
        tbody #placing {
            tr.section { th colspan="7" {
                "Placing: ranked after " (lb.placement_matches) " rated matches"
            } }
            @for row in &lb.placing {
                tr {
                    td.num { span.muted { "–" } }
                    td {
                        a href=(team_href(&row.team)) { (row.team) }
                        @if row.builtin { " " span.badge { "built-in" } }
                    }
                    td {
                        (row.version_label) " " span.muted { "#" (row.version_id) }
                        @if row.pinned { " " span.badge.pinned { "pinned" } }
                    }
                    td.num { (format!("{:.2} ± {:.2}", row.mu, row.sigma)) }
                    td.num { span.muted { "placing: " (row.matches) " of " (lb.placement_matches) } }
                    td.num { (row.matches) }
                    td.num { span.muted { "new" } }
                }
            }
        }
    }
}

fn state_badge(state: &str) -> Markup {
    html! { span class=(format!("badge {state}")) { (state) } }
}

fn versions_table(versions: &[VersionRow], active: Option<VersionId>, own: bool) -> Markup {
    html! {
        (wide(html! { table #versions {
            thead { tr {
                th { "Version" } th { "Label" } th { "Language" } th { "Submitted" }
                th { "State" } th.num { "μ ± σ" } th.num { "Matches" } th { "SPRT" }
            } }
            tbody {
                @for v in versions {
                    tr {
                        td {
                            @if own { a href=(format!("/submissions/{}", v.id)) { "#" (v.id) } }
                            @else { "#" (v.id) }
                            @if active == Some(v.id) { " " span.badge.active { "plays" } }
                        }
                        td { (clip(&v.label)) }
                        td { (v.language) }
                        td { (time(v.submitted_at)) }
                        td {
                            (state_badge(v.state.as_str()))
                            @if let Some(f) = &v.failure { " " span.failure { (f) } }
                        }
                        td.num { (format!("{:.2} ± {:.2}", v.mu, v.sigma)) }
                        td.num { (v.matches) }
                        td { (v.sprt_verdict().unwrap_or("-")) }
                    }
                }
            }
        } }))
    }
}

/// A team's page; `choice` is the section where its team (or the organiser) chooses the
/// version that plays ([`super::pinning::section`]).
pub fn team(page: &TeamPage, choice: Markup) -> Markup {
    html! {
        @if page.disabled {
            p.notice { "This team is disabled by the organiser: it plays no matches." }
        }
        p #plays {
            "Plays: "
            @match page.active_version {
                Some(id) => {
                    "version #" (id)
                    @if page.pinned_version == Some(id) { " " span.badge.pinned { "pinned" } }
                    @else { " (its latest that passed its check)" }
                },
                None => { "no version has passed its check yet" },
            }
        }
        (forfeit_summary(&page.forfeits))
        (choice)
        h2 { "Versions" }
        (versions_table(&page.versions, page.active_version, page.own))
        h2 { "Rating history" }
        (plot::history(&page.history))
        h2 { "Against each opponent" }
        @if page.opponents.is_empty() {
            p.muted { "No finished match yet." }
        } @else {
            (wide(html! { table #opponents {
                thead { tr {
                    th { "Opponent" } th.num { "Matches" } th.num { "Won" } th.num { "Drawn" }
                    th.num { "Lost" } th.num { "Score" }
                } }
                tbody {
                    @for o in &page.opponents {
                        tr {
                            td { a.clip href=(team_href(&o.team)) title=(o.team) { (o.team) } }
                            td.num { (o.matches) } td.num { (o.wins) } td.num { (o.draws) }
                            td.num { (o.losses) }
                            td.num { (format!("{:.0}%", o.score * 100.0)) }
                        }
                    }
                }
            } }))
        }
        h2 { "Recent matches" }
        (match_list(&page.recent))
    }
}

pub fn match_list(rows: &[MatchRow]) -> Markup {
    html! {
        @if rows.is_empty() {
            p.muted { "No finished match yet." }
        } @else {
            (wide(html! { table.matches {
                thead { tr { th { "Match" } th { "Finished" } th { "Kind" } th { "Seats (points, rank)" } } }
                tbody {
                    @for m in rows {
                        tr {
                            td { a href=(format!("/matches/{}", m.id)) { "#" (m.id) } }
                            td { (opt_time(m.finished_at)) }
                            td { (m.kind) }
                            td {
                                @for (i, s) in m.seats.iter().enumerate() {
                                    @if i > 0 { " · " }
                                    a.clip href=(team_href(&s.team)) title=(s.team) { (s.team) }
                                    " "
                                    span.muted.nowrap {
                                        (s.points.map(|p| format!("{p}")).unwrap_or_else(|| "-".into()))
                                        @if let Some(r) = s.rank { ", #" (r) }
                                    }
                                }
                            }
                        }
                    }
                }
            } }))
        }
    }
}

pub fn match_page(page: &MatchPage) -> Markup {
    let m = &page.row;
    html! {
        p {
            (state_badge(m.state.as_str())) " " (m.kind) " match, " (m.rounds) " rounds; started "
            (opt_time(m.started_at)) ", finished " (opt_time(m.finished_at)) "."
        }
        @if let Some(e) = &page.error { p.failure { (e) } }
        (forfeit_list(page))
        h2 { "Results" }
        (wide(html! { table #seats {
            thead { tr {
                th.num { "Seat" } th { "Team" } th { "Version" } th.num { "Points" } th.num { "Rank" }
                th.num { "Forfeits" } th.num { "Rating before" } th.num { "Rating after" }
                th.num { "Moves" } th.num { "Mean move" } th.num { "Longest move" }
            } }
            tbody {
                @for s in &m.seats {
                    @let t = page.timings.get(s.seat as usize);
                    tr {
                        td.num { (s.seat + 1) }
                        td { a.clip href=(team_href(&s.team)) title=(s.team) { (s.team) } }
                        td { (clip(&s.version_label)) " " span.muted { "#" (s.version_id) } }
                        td.num { (s.points.map(|p| format!("{p}")).unwrap_or_else(|| "-".into())) }
                        td.num { (s.rank.map(|r| r.to_string()).unwrap_or_else(|| "-".into())) }
                        td.num { (s.forfeits.unwrap_or(0)) }
                        td.num { (rating(s.mu_before, s.sigma_before)) }
                        td.num { (rating(s.mu_after, s.sigma_after)) }
                        td.num { (t.map_or(0, |t| t.moves)) }
                        td.num { (t.map(|t| format!("{:.1} ms", t.mean_ms)).unwrap_or_default()) }
                        td.num { (t.map(|t| format!("{:.1} ms", t.max_ms)).unwrap_or_default()) }
                    }
                }
            }
        } }))
        (where_lost(page))
        @if m.state == MatchState::Done {
            h2 { "Replay" }
            p.muted {
                "Each seat's stderr and logs show only to its team and the organiser. "
                a href=(format!("/matches/{}/replay", m.id)) { "Open the replay alone" } "."
            }
            iframe.replay src=(format!("/matches/{}/replay", m.id)) title="Replay" {}
        }
    }
}

/// "Where the game was lost": each seat's accuracy and its largest losses, once the grader has
/// been through the match (nothing before, nor for a game without analysis).
fn where_lost(page: &MatchPage) -> Markup {
    let team = |seat: usize| {
        page.row
            .seats
            .get(seat)
            .map_or_else(|| format!("seat {seat}"), |s| s.team.clone())
    };
    html! {
        @if let Some(g) = &page.grades {
            section #where-lost {
                h2 { "Where the game was lost" }
                @if let Some(e) = &g.error {
                    p.muted { "The moves could not be graded: " (e) }
                } @else {
                    p.muted {
                        "Each move graded against the best: the balls it lost, exact where the \
                         search finished within " (g.budget_ms) " ms a position, an estimate \
                         elsewhere. Accuracy is the share of moves within one ball of the best."
                    }
                    (wide(html! { table #lost {
                        thead { tr {
                            th { "Team" } th.num { "Seat" } th.num { "Accuracy" } th.num { "Moves" }
                            th.num { "Balls lost" } th { "Largest losses" }
                        } }
                        tbody {
                            @for s in &g.seats {
                                tr {
                                    td { (clip(&team(s.seat))) }
                                    td.num { (s.seat) }
                                    td.num { (format!("{:.0}%", s.accuracy() * 100.0)) }
                                    td.num { (s.moves) }
                                    td.num { (s.total_loss) }
                                    td {
                                        @for (i, w) in s.worst.iter().enumerate() {
                                            @if i > 0 { "; " }
                                            "round " (w.round) ", move " (w.ply) ": " (w.mv)
                                            " lost " (w.loss) " (best " (w.best.join(" or ")) ")"
                                            @if !w.exact { " ≈" }
                                        }
                                        @if s.worst.is_empty() { span.muted { "none" } }
                                    }
                                }
                            }
                        }
                    } }))
                }
            }
        }
    }
}

/// A forfeit's cause in words.
fn forfeit_cause(f: &crate::views::ForfeitRow) -> &str {
    match f.kind.as_str() {
        "crash" => "crash",
        "timeout" => "timeout",
        "retries" => "illegal moves",
        "closed_stdout" => "closed stdout",
        // The arbiter's documented mark of a withdrawn seat's rounds.
        "startup" if f.detail.starts_with("withdrawn") => "withdrawn",
        "startup" => "no ready",
        "line_too_long" => "line too long",
        "flood" => "flood",
        other => other,
    }
}

/// A match's forfeits, at the top of its page: each with its cause, move and time, and the
/// bot's last stderr where the viewer may read it (its team's seats, every seat for the
/// organiser: the view left the others out).
fn forfeit_list(page: &MatchPage) -> Markup {
    html! {
        @if !page.forfeits.is_empty() {
            section #forfeits {
                h2 { "Forfeits" }
                (wide(html! { table #forfeit-list {
                    thead { tr {
                        th.num { "Round" } th { "Team" } th { "Cause" } th.num { "Move" }
                        th.num { "Into the round" } th { "What happened" }
                    } }
                    tbody {
                        @for f in &page.forfeits {
                            tr {
                                td.num { (f.round) }
                                td {
                                    a.clip href=(team_href(&f.team)) title=(f.team) { (f.team) }
                                    " " span.muted.nowrap { "seat " (f.seat + 1) }
                                }
                                td { span.badge.fail { (forfeit_cause(f)) } }
                                td.num { @if f.ply == 0 { "start-up" } @else { (f.ply) } }
                                td.num { (duration(f.at_ms)) }
                                td {
                                    (f.detail)
                                    @if let Some(exit) = f.exit.as_ref().filter(|e| !f.detail.contains(e.as_str())) {
                                        " (the bot " (exit) ")"
                                    }
                                }
                            }
                            @if let Some(tail) = &f.stderr_tail {
                                tr.stderr {
                                    td {}
                                    td colspan="5" {
                                        div.muted { "Its stderr's last bytes (shown to its team and the organiser only):" }
                                        pre.stderr-tail { (tail) }
                                    }
                                }
                            }
                        }
                    }
                } }))
                p.muted { "A bot's stderr shows here to its own team (logged in) and the organiser." }
            }
        }
    }
}

/// A time into a round: "340 ms", "12.5 s".
fn duration(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.1} s", ms / 1000.0)
    }
}

/// A team's forfeits over its last matches, by cause, with a link to the worst match.
fn forfeit_summary(s: &crate::views::ForfeitSummary) -> Markup {
    let total = s.crashes + s.timeouts + s.illegal + s.withdrawn + s.other;
    let last =
        crate::record::notes::plural(s.matches as usize, "finished match", "finished matches");
    html! {
        @if s.matches > 0 {
            @if total == 0 {
                p.muted #forfeit-summary { "No forfeit in its last " (last) "." }
            } @else {
                p.notice #forfeit-summary {
                    "Forfeits in its last " (last) ": "
                    b { (crate::record::notes::plural(s.crashes as usize, "crash", "crashes")) } ", "
                    b { (crate::record::notes::plural(s.timeouts as usize, "timeout", "timeouts")) } ", "
                    b { (s.illegal) " illegal moves" } " (every attempt refused)"
                    @if s.withdrawn > 0 {
                        ", " (crate::record::notes::plural(s.withdrawn as usize, "round", "rounds"))
                        " withdrawn after crashes in a row"
                    }
                    @if s.other > 0 { ", " (s.other) " other" }
                    "."
                    @if let Some(w) = &s.worst {
                        " The worst: " a #worst-match href=(format!("/matches/{}", w.id)) { "match #" (w.id) }
                        " (" (crate::record::notes::plural(w.forfeits as usize, "forfeit", "forfeits")) ")."
                    }
                }
            }
        }
    }
}

fn rating(mu: Option<f64>, sigma: Option<f64>) -> String {
    match (mu, sigma) {
        (Some(m), Some(s)) => format!("{m:.2} ± {s:.2}"),
        _ => "-".into(),
    }
}

pub fn submission(page: &SubmissionPage) -> Markup {
    let v = &page.version;
    html! {
        p {
            "Team " a href=(team_href(&v.team)) { (v.team) } ", " (v.language) ", submitted "
            (time(v.submitted_at)) ", " (v.source_bytes) " bytes. "
            (state_badge(v.state.as_str()))
            @if page.active { " " span.badge.active { "plays" } }
        }
        @if let Some(f) = &v.failure { p.failure #failure { (f) } }
        @if let Some(verdict) = v.sprt_verdict() { p { "SPRT against the pool: " b { (verdict) } } }
        h2 { "Build log" }
        @match &page.build_log {
            Some(log) if !log.is_empty() => pre #build-log { (log) },
            Some(_) => p.muted { "The build printed nothing." },
            None => p.muted { "Not built yet." },
        }
        h2 { "Check report" }
        @match &page.check {
            Some(report) => (check_report(report)),
            None => p.muted { "Not checked yet." },
        }
        h2 { "Source files" }
        ul #files {
            @for f in &page.files {
                li {
                    a href=(format!("/submissions/{}/files/{}", v.id,
                        f.path.split('/').map(|p| utf8_percent_encode(p, NON_ALPHANUMERIC).to_string())
                            .collect::<Vec<_>>().join("/"))) { (f.path) }
                    " " span.muted { (f.bytes) " bytes" }
                }
            }
        }
    }
}

/// `rollarena check`'s report (its JSON), item by item, failures with their evidence and hint.
pub fn check_report(report: &Value) -> Markup {
    let passed = report
        .get("passed")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let items = report
        .get("items")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    html! {
        p #check-verdict class=(if passed { "pass" } else { "fail" }) {
            @if passed { "Passed every item." } @else { "Failed: the version does not enter the ladder." }
        }
        table #check {
            tbody {
                @for item in &items {
                    @let status = text(item, "status");
                    tr class=(status) {
                        td { span class=(format!("badge {status}")) { (status) } }
                        td { b { (text(item, "title")) } br; (text(item, "detail")) }
                    }
                    @if let Some(problem) = item.get("problem") {
                        tr.problem {
                            td {}
                            td {
                                @let hint = text(problem, "hint");
                                @if !hint.is_empty() { div.hint { b { "Hint: " } (hint) } }
                                @if let Some(lines) = problem.get("exchange").and_then(Value::as_array) {
                                    @if !lines.is_empty() {
                                        pre.exchange {
                                            @for line in lines {
                                                (exchange_line(line)) "\n"
                                            }
                                        }
                                    }
                                }
                                @let stderr = text(problem, "stderr");
                                @if !stderr.is_empty() { div { "Its stderr:" } pre { (stderr) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// One line of a failed item's exchange, however check wrote it.
fn exchange_line(line: &Value) -> String {
    match line {
        Value::String(s) => s.clone(),
        Value::Object(o) => {
            let dir = o
                .get("dir")
                .or_else(|| o.get("from"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let text = o
                .get("text")
                .or_else(|| o.get("line"))
                .map(|t| {
                    t.as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| t.to_string())
                })
                .unwrap_or_else(|| line.to_string());
            if dir.is_empty() {
                text
            } else {
                format!("{dir} {text}")
            }
        }
        other => other.to_string(),
    }
}

/// The login form (token in, session cookie out).
pub fn login(csrf: &str, error: Option<&str>) -> Markup {
    html! {
        @if let Some(e) = error { p.failure #login-error { (e) } }
        form method="post" action="/login" {
            input type="hidden" name="csrf" value=(csrf);
            label { "Token (your team's, or the organiser's) " input type="password" name="token" autocomplete="off" required; }
            button type="submit" { "Log in" }
        }
        p.muted { "The organiser gives each team its token. The session lasts a week, or until you log out." }
    }
}

/// The submit form of a logged-in team.
pub fn submit(
    csrf: &str,
    languages: &[(String, String)],
    max_bytes: u64,
    error: Option<&str>,
) -> Markup {
    html! {
        @if let Some(e) = error { p.failure #submit-error { (e) } }
        form method="post" action="/submit" enctype="multipart/form-data" {
            input type="hidden" name="csrf" value=(csrf);
            p { label { "Source: a single file, or a .tar.gz or .zip archive (at most "
                (crate::config::format_size(max_bytes)) ") "
                input type="file" name="file" required; } }
            p { label { "Language " select name="language" {
                option value="" { "from the file" }
                @for (name, about) in languages { option value=(name) { (name) " (" (about) ")" } }
            } } }
            p { label { "Label " input type="text" name="label" maxlength="100" placeholder="v2: deeper search"; } }
            button type="submit" { "Submit" }
        }
    }
}

pub fn organiser(
    page: &OrganiserPage,
    csrf: &str,
    new_token: Option<(&str, &str)>,
    error: Option<&str>,
) -> Markup {
    html! {
        @if let Some(e) = error { p.failure #organiser-error { (e) } }
        @if let Some((team, token)) = new_token {
            div.notice #new-token {
                "The token of team " b { (team) } " (shown this once: give it to the team): "
                code { (token) }
            }
        }
        p {
            "Matchmaker: " b { @if page.paused { "paused" } @else { "running" } } ". "
            (page.queued_versions) " versions waiting for build or check, "
            (page.pending_matches) " matches queued or being played. "
            form.inline method="post" action="/organiser/matchmaker" {
                input type="hidden" name="csrf" value=(csrf);
                input type="hidden" name="paused" value=(if page.paused { "false" } else { "true" });
                button type="submit" { @if page.paused { "Resume the matchmaker" } @else { "Pause the matchmaker" } }
            }
        }
        h2 { "Teams" }
        (wide(html! { table #teams {
            thead { tr { th { "Team" } th { "Since" } th.num { "Versions" } th { "Plays" } th { "" } } }
            tbody {
                @for t in &page.teams {
                    tr {
                        td { a.clip href=(team_href(&t.name)) title=(t.name) { (t.name) } @if t.builtin { " " span.badge { "built-in" } } @if t.disabled { " " span.badge.failed { "disabled" } } }
                        td { (time(t.created_at)) }
                        td.num { (t.versions) }
                        td.plays { (plays(t.active_version, t.pinned_version)) }
                        td {
                            form.inline method="post" action="/organiser/team" {
                                input type="hidden" name="csrf" value=(csrf);
                                input type="hidden" name="team" value=(t.name);
                                @if t.disabled {
                                    button type="submit" name="action" value="enable" { "Enable" }
                                } @else {
                                    button type="submit" name="action" value="disable" { "Disable" }
                                }
                                @if !t.builtin {
                                    " "
                                    button type="submit" name="action" value="token" { "New token" }
                                }
                            }
                        }
                    }
                }
            }
        } }))
        (super::workers::section(&page.workers))
        h2 { "Add a team" }
        form method="post" action="/organiser/teams" {
            input type="hidden" name="csrf" value=(csrf);
            label { "Name " input type="text" name="name" required maxlength="64"; }
            button type="submit" { "Add" }
        }
    }
}

/// The version that plays, as the organiser's teams table shows it: "#3 pinned", "#4 latest",
/// or why none plays.
pub fn plays(active: Option<VersionId>, pinned: Option<VersionId>) -> Markup {
    html! {
        @match (active, pinned) {
            (Some(a), Some(p)) if a == p => { "#" (a) " " span.badge.pinned { "pinned" } },
            (Some(a), Some(p)) => {
                "#" (a) " " span.muted { "latest (#" (p) " is pinned but not ready)" }
            },
            (Some(a), None) => { "#" (a) " " span.muted { "latest" } },
            (None, _) => { span.muted { "none ready" } },
        }
    }
}

pub fn message(text: &str) -> Markup {
    html! { p.failure #error { (text) } }
}

/// The stylesheet, served as `/style.css` (the CSP allows no inline style).
pub const STYLE: PreEscaped<&str> = PreEscaped(include_str!("style.css"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_s_title_never_doubles_team() {
        assert_eq!(team_title("Alpha"), "Team Alpha");
        assert_eq!(team_title("Team Alpha"), "Team Alpha");
        assert_eq!(team_title("team-rocket"), "team-rocket");
        assert_eq!(team_title("  TEAM 7"), "  TEAM 7");
        assert_eq!(team_title("Teamwork"), "Team Teamwork");
        assert_eq!(team_title("<b>"), "Team <b>");
    }

    /// A leaderboard row of `team` with `matches` rated matches.
    fn leader_row(team: &str, version: i64, matches: i64) -> crate::views::LeaderRow {
        crate::views::LeaderRow {
            rank: 1,
            team: team.into(),
            builtin: false,
            version_id: VersionId(version),
            version_label: "v".into(),
            pinned: false,
            mu: 27.0,
            sigma: 1.0,
            conservative: 24.0,
            matches,
            trend: None,
        }
    }

    #[test]
    fn the_versions_still_placing_are_listed_apart_with_their_count() {
        let lb = Leaderboard {
            paused: false,
            at_rest_since: None,
            matches: 3,
            rows: vec![leader_row("e", 50, 4)],
            placement_matches: 4,
            placing: vec![leader_row("a", 10, 3), leader_row("f", 60, 0)],
            unranked: Vec::new(),
            disabled: Vec::new(),
        };
        let page = leaderboard(&lb).into_string();
        let (ranked, apart) = page.split_once("id=\"placing\"").unwrap();
        assert!(ranked.contains(">e<") && !ranked.contains(">f<"), "{page}");
        assert!(
            apart.contains(">f<") && apart.contains("placing: 0 of 4"),
            "{page}"
        );
        assert!(apart.contains("placing: 3 of 4"), "{page}");
    }

    #[test]
    fn a_forfeit_s_time_reads_in_ms_then_seconds() {
        assert_eq!(duration(0.0), "0 ms");
        assert_eq!(duration(340.4), "340 ms");
        assert_eq!(duration(12_500.0), "12.5 s");
    }
}
