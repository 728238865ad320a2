//! A report page: the fixed template (`page.html`, its style `report.css` and its one script
//! `report.js`) with the page's data embedded as JSON that cannot close its element (the
//! viewer's [`embed`]), and a Content-Security-Policy that allows no network and no script but
//! this one (by its SHA-256). The script draws every page kind from the data with text nodes
//! only, so nothing a bot chose can become markup.

use std::path::Path;

use serde_json::Value;

pub use crate::show::html::csp_hash;
use crate::show::html::embed;
use crate::tournament::output::write_atomic;

const TEMPLATE: &str = include_str!("page.html");
const STYLE: &str = include_str!("report.css");
pub const SCRIPT: &str = include_str!("report.js");

/// The page for `data` (an object with a `kind`); `refresh`: reload every so many seconds.
pub fn render(data: &Value, refresh: Option<u32>) -> String {
    let refresh = refresh
        .map(|s| format!("<meta http-equiv=\"refresh\" content=\"{s}\">\n"))
        .unwrap_or_default();
    TEMPLATE
        .replace("{{SCRIPT_HASH}}", &csp_hash(SCRIPT))
        .replace("{{REFRESH}}", &refresh)
        .replace("{{STYLE}}", STYLE)
        .replace("{{SCRIPT}}", SCRIPT)
        .replace("{{DATA}}", &embed(data))
}

/// Writes a page atomically (a reader sees the old page or the new one, never half of one);
/// returns its size.
pub fn write(path: &Path, html: &str) -> Result<u64, crate::Error> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| crate::Error::io(format!("cannot create {}", dir.display()), e))?;
    }
    write_atomic(path, html.as_bytes())
        .map_err(|e| crate::Error::io(format!("cannot write {}", path.display()), e))?;
    Ok(html.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_has_one_slot_each_and_the_script_no_markup() {
        for slot in [
            "{{DATA}}",
            "{{SCRIPT}}",
            "{{STYLE}}",
            "{{SCRIPT_HASH}}",
            "{{REFRESH}}",
        ] {
            assert_eq!(TEMPLATE.matches(slot).count(), 1, "{slot}");
        }
        for bad in [
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
        ] {
            assert!(
                !SCRIPT.contains(bad),
                "the report script must not use {bad}"
            );
        }
        assert!(!SCRIPT.contains("</script"));
    }

    #[test]
    fn hostile_data_stays_in_its_element() {
        let data =
            serde_json::json!({"kind": "error", "title": "</script><script>alert(1)</script>"});
        let page = render(&data, None);
        assert_eq!(page.matches("<script").count(), 2);
        assert!(page.contains(&csp_hash(SCRIPT)));
    }
}
