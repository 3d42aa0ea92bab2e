//! Mentions: `@name` in a line of a table's room, a game's room or an event's
//! room tells that person on every page they have open (a `mention`
//! notification), unless they block the writer or may not read the room (a
//! line of a table's players' room is for its players alone). At most
//! [`MAX`] people are told of one line; private messages mention nobody.

use qiyuan_store::Store;

use crate::live::UserInfo;
use crate::people::Notifier;
use crate::protocol::chat::MentionAt;
use crate::protocol::out::Notification;

/// The most people one line tells.
const MAX: usize = 5;

/// A line as written, for the people it mentions.
pub(super) struct Mention<'a> {
    pub by: &'a UserInfo,
    pub text: &'a str,
    pub line: i64,
    pub at: MentionAt,
}

/// The names a line mentions, each once, in order: `@` then letters,
/// digits, `_` or `-` (a username's characters); at most [`MAX`].
fn names(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('@') {
        rest = &rest[at + 1..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
            if names.len() == MAX {
                break;
            }
        }
    }
    names
}

/// Tells each person the line mentions who `may_read` its room (by name) and
/// does not block its writer. A failure to read the store tells nobody more.
pub(super) async fn tell(
    store: &dyn Store,
    notifier: &Notifier,
    mention: Mention<'_>,
    may_read: impl Fn(&str) -> bool,
) {
    for name in names(mention.text) {
        let name = crate::auth::normalize_username(&name);
        let person = match store.user_by_name(&name).await {
            Ok(Some(person)) => person,
            Ok(None) => continue,
            Err(e) => {
                tracing::warn!("cannot read a mentioned person: {e}");
                return;
            }
        };
        if person.id == mention.by.id || !may_read(&person.username) {
            continue;
        }
        match store.is_blocked(person.id, mention.by.id).await {
            Ok(false) => {}
            Ok(true) => continue,
            Err(e) => {
                tracing::warn!("cannot read a block: {e}");
                return;
            }
        }
        notifier.notify(
            person.id,
            Notification::Mention {
                by: mention.by.username.clone(),
                text: mention.text.to_string(),
                at: mention.at.clone(),
                line: mention.line,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_read_once_each_and_no_more_than_five() {
        assert_eq!(names("hi @bob, @carol_2 and @bob"), ["bob", "carol_2"]);
        assert_eq!(names("mail@ me @ nobody"), Vec::<String>::new());
        assert_eq!(names("@小明 好"), ["小明"]);
        assert_eq!(names("@a @b @c @d @e @f").len(), 5);
    }
}
