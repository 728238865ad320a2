//! The second step of the organiser's irreversible or expensive actions on the site (disable a
//! team, give it a new token, close the contest now, start the final, void a match, play it
//! again, recompute every rating): the form's POST without `confirm=yes` does nothing but
//! answer a page that says what will happen, with two buttons. "Cancel" is the focused one, so
//! Enter on that page goes back; the action's button sits in a form of hidden fields only, so
//! no Enter in a text field can press it. Without JavaScript as with it: the question is a page,
//! never a dialog. The JSON API (a bearer token, `rollarena arena ...`) acts at once.

use axum::response::{IntoResponse, Response};
use maud::{Markup, html};

use super::auth::Auth;
use super::templates::{self, Frame};

/// The field a confirmed form carries, and its value.
pub const FIELD: &str = "confirm";
pub const YES: &str = "yes";

/// Whether a form's `confirm` field says yes.
pub fn confirmed(value: Option<&str>) -> bool {
    value.is_some_and(|v| v.trim() == YES)
}

/// What the question page asks: its title, what will happen (in sentences), the form's
/// address and fields to send again with `confirm=yes`, and the action's button.
pub struct Question {
    pub title: String,
    pub what: Markup,
    pub action: &'static str,
    pub fields: Vec<(&'static str, String)>,
    pub yes: String,
    /// Where "Cancel" leads (a page's address).
    pub back: &'static str,
}

/// The question as a page, for the organiser (`csrf` is the session's).
pub fn page(auth: &Auth, csrf: &str, q: &Question) -> Response {
    let body = html! {
        div.confirm #confirm {
            (q.what)
            div.choices {
                // First and focused: Enter on this page cancels.
                form.inline method="get" action=(q.back) {
                    button #cancel type="submit" autofocus { "Cancel: go back, change nothing" }
                }
                form.inline method="post" action=(q.action) {
                    input type="hidden" name="csrf" value=(csrf);
                    @for (name, value) in &q.fields {
                        input type="hidden" name=(name) value=(value);
                    }
                    input type="hidden" name=(FIELD) value=(YES);
                    button.danger #confirm-yes type="submit" { (q.yes) }
                }
            }
        }
    };
    templates::layout(
        &Frame {
            viewer: &auth.viewer,
            csrf: auth.csrf.as_deref(),
            closing: auth.closing,
        },
        &q.title,
        body,
    )
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_yes_confirms() {
        assert!(confirmed(Some("yes")));
        assert!(confirmed(Some(" yes ")));
        for v in [None, Some(""), Some("no"), Some("1"), Some("YES!")] {
            assert!(!confirmed(v), "{v:?}");
        }
    }
}
