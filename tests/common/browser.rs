//! A real browser for the tests of pages: headless Chromium loads a page and dumps its
//! DOM after its scripts ran, and the opening tags of a class are read back from it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::Scratch;

/// The browser: `chromium` on the path (Debian's package), or a failure that says how
/// to get it. The replay page's test needs a real browser, so it fails rather than skip.
pub fn chromium() -> PathBuf {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("chromium"))
            .find(|p| p.is_file())
    });
    found.unwrap_or_else(|| {
        panic!(
            "chromium is missing: the replay page is tested in a headless browser. `.ci/run` \
             installs it (apt-get install -y chromium); install it the same way to run this test"
        )
    })
}

/// The page's DOM after its scripts ran, as headless Chromium dumps it, opened at
/// `fragment` (`ply=12`). A browser profile of its own in a scratch folder; nothing
/// from the network.
pub fn dump_dom(page: &Path, fragment: &str) -> String {
    let profile = Scratch::new("chromium-profile");
    let url = format!("file://{}#{fragment}", page.display());
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=2000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(&url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    while child.try_wait().expect("chromium runs").is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("chromium did not finish loading {url} in 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "chromium failed on {url}");
    String::from_utf8(out.stdout).expect("the DOM is UTF-8")
}

/// The opening tags of a dumped DOM whose attributes include `class="CLASS"` (exactly),
/// each as its attributes, entities decoded.
pub fn tags_of_class(dom: &str, class: &str) -> Vec<BTreeMap<String, String>> {
    let mut found = Vec::new();
    let needle = format!("class=\"{class}\"");
    for (at, _) in dom.match_indices(&needle) {
        let start = dom[..at].rfind('<').unwrap();
        let end = at + dom[at..].find('>').unwrap();
        found.push(attributes(&dom[start..end]));
    }
    found
}

/// The attributes of one opening tag (`<g a="1" b="2"`), entities decoded.
pub fn attributes(tag: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = tag;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].rsplit([' ', '\n']).next().unwrap().to_string();
        let value_end = rest[eq + 2..].find('"').unwrap();
        let value = rest[eq + 2..eq + 2 + value_end]
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        out.insert(name, value);
        rest = &rest[eq + 2 + value_end + 1..];
    }
    out
}
