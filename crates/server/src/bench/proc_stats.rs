//! What a process costs, read from `/proc` (Linux): CPU time, per thread, and
//! resident memory.

use std::collections::BTreeMap;
use std::time::Duration;

/// A process's CPU time (user + system) from `/proc/{pid}/stat`, on Linux.
pub(super) fn process_cpu(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat_cpu(&stat).map(|(_, cpu)| cpu)
}

/// The command (a thread's name) and CPU time (user + system) of a
/// `/proc/…/stat` text.
fn stat_cpu(stat: &str) -> Option<(&str, Duration)> {
    // The command name is in parentheses; the fields follow it.
    let (open, close) = (stat.find('(')?, stat.rfind(')')?);
    let name = stat.get(open + 1..close)?;
    let rest = stat.get(close + 2..)?;
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // The kernel's USER_HZ is 100 on every Linux this runs on.
    Some((name, Duration::from_millis(ticks * 10)))
}

/// A process's CPU time by thread name (threads of one name added up: the
/// runtime's workers, sqlx's SQLite threads, the store's writer), from
/// `/proc/{pid}/task/*/stat`, on Linux.
pub(super) fn threads_cpu(pid: u32) -> BTreeMap<String, Duration> {
    let mut by_name = BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return by_name;
    };
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        if let Some((name, cpu)) = stat_cpu(&stat) {
            *by_name.entry(name.to_string()).or_default() += cpu;
        }
    }
    by_name
}

/// A process's resident memory in bytes (`VmRSS` of `/proc/{pid}/status`).
pub(super) fn process_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
